import { PROCESS_ERROR_CODES } from '@pathology/contract';
import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import type { Db } from '../../db/client.ts';
import { imageLayers, images } from '../../db/schema/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';

export interface LayerTarget {
  layerId: string;
  /** The pyramid's blob key, or the original's while fromOriginal. */
  pyramidKey: string;
  /** Served from the original while the pyramid builds. */
  fromOriginal: boolean;
}

/**
 * A layer served from its original that may still be: not once its conversion failed on the image's own data
 * (-100, corrupt or unreadable pixels), which would leave the slide half-served, some tiles showing and some
 * failing. A transient failure (-101: worker lost, time limit) says nothing against the original, which stays.
 */
export const SERVABLE_FROM_ORIGINAL: SQL = and(
  eq(imageLayers.fromOriginal, true),
  sql`${images.processErrorCode} IS DISTINCT FROM ${PROCESS_ERROR_CODES.unsupportedData}`,
)!;

/** How long a "may see" answer is reused: a viewer asks hundreds of tiles a minute of one layer. */
const ACCESS_TTL_MS = 30_000;
/** A layer served from its original is looked up again sooner: its pyramid, faster to serve, takes over within seconds. */
const ORIGINAL_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;

/**
 * Finds the pyramid of a layer of an available image (or the original of a layer served from it while the
 * image converts, or after its conversion failed but for its data) and checks that the caller may see its case
 * (404 otherwise, as everywhere). Answers are remembered per account and layer for ACCESS_TTL_MS,
 * so a revoked right stops working within that time, not at once.
 */
export function createLayerAccess(deps: { db: Db; capabilities: Pick<CapabilitiesService, 'requireCaseVisible'> }) {
  const remembered = new Map<string, { target: LayerTarget; until: number }>();
  const pending = new Map<string, Promise<LayerTarget>>();

  async function lookUp(caller: Caller, layerId: string): Promise<LayerTarget> {
    if (!isUuid(layerId)) throw HttpError.notFound();
    const [row] = await deps.db
      .select({ pyramidKey: imageLayers.pyramidKey, fromOriginal: imageLayers.fromOriginal, caseId: images.caseId })
      .from(imageLayers)
      .innerJoin(images, eq(images.id, imageLayers.imageId))
      .where(and(eq(imageLayers.id, layerId), or(eq(images.status, 'available'), SERVABLE_FROM_ORIGINAL)));
    if (row == null) throw HttpError.notFound();
    await deps.capabilities.requireCaseVisible(caller, row.caseId);
    return { layerId, pyramidKey: row.pyramidKey, fromOriginal: row.fromOriginal };
  }

  return {
    /** The remembered answer, if any and still fresh: for the lean path, which never waits for the database. */
    peek(caller: Caller, layerId: string, now = Date.now()): LayerTarget | undefined {
      const hit = remembered.get(`${caller.accountId}:${layerId}`);
      return hit != null && hit.until > now ? hit.target : undefined;
    },
    async require(caller: Caller, layerId: string, now = Date.now()): Promise<LayerTarget> {
      const key = `${caller.accountId}:${layerId}`;
      const hit = remembered.get(key);
      if (hit != null && hit.until > now) return hit.target;
      // A viewer opens with many tiles at once: they share one look-up instead of one query each.
      let lookingUp = pending.get(key);
      if (lookingUp == null) {
        lookingUp = lookUp(caller, layerId).finally(() => pending.delete(key));
        pending.set(key, lookingUp);
      }
      const target = await lookingUp;
      if (remembered.size >= MAX_ENTRIES) remembered.clear();
      remembered.set(key, { target, until: now + (target.fromOriginal ? ORIGINAL_TTL_MS : ACCESS_TTL_MS) });
      return target;
    },
  };
}

export type LayerAccess = ReturnType<typeof createLayerAccess>;
