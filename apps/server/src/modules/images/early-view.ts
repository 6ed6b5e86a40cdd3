import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { imageLayers, images } from '../../db/schema/index.ts';
import { FLAT_LAYER } from '../../imaging/layers.ts';
import { SERVABLE_FROM_ORIGINAL } from '../iiif/layer-access.ts';
import type { OriginalSource } from '../iiif/original-source.ts';
import { createTileCache } from '../iiif/tile-cache.ts';

/**
 * Makes a stored upload viewable before its conversion: when the original can be read tile by tile
 * (original-plan.ts), its layer 0 is recorded as served from the original, with the size the pyramid will
 * have. The conversion's commit turns that very row into the pyramid's layer, so the viewer's tile URL
 * never changes.
 */
const THUMBNAIL_TILE_BYTES = 16 * 1024 * 1024;

export function createEarlyView(deps: { db: Db; originals: OriginalSource; log: FastifyBaseLogger }) {
  const { db, log } = deps;
  // Thumbnails are cut from the original's smallest levels: a few stored tiles each, worth keeping briefly.
  const tiles = createTileCache(THUMBNAIL_TILE_BYTES);

  async function prepare(imageId: string): Promise<boolean> {
    const [image] = await db
      .select({ originalKey: images.originalKey, status: images.status })
      .from(images)
      .where(eq(images.id, imageId));
    if (image?.originalKey == null || image.status !== 'uploaded') return false;
    // A reprocess keeps what it showed: its layers stay until the new ones are swapped in.
    const [layer] = await db.select({ id: imageLayers.id }).from(imageLayers).where(eq(imageLayers.imageId, imageId));
    if (layer != null) return false;
    const served = await deps.originals.served(image.originalKey);
    const full = served?.levels[0];
    if (served == null || full == null) return false;
    // The viewer's magnification, µm/px and scale bar need these from the first tile on, not from the hand-over.
    const { resolution, magnification } = served.scale;
    return db.transaction(async (tx) => {
      const [updated] = await tx
        .update(images)
        .set({
          width: full.width,
          height: full.height,
          resolutionX: resolution?.x ?? null,
          resolutionY: resolution?.y ?? null,
          resolutionUnit: resolution?.unit ?? null,
          magnification,
          conversionProgress: 0,
        })
        .where(and(eq(images.id, imageId), eq(images.status, 'uploaded')))
        .returning({ id: images.id });
      if (updated == null) return false;
      await tx.insert(imageLayers).values({
        imageId,
        layerNumber: 0,
        width: full.width,
        height: full.height,
        metadata: FLAT_LAYER,
        pyramidKey: image.originalKey!,
        fromOriginal: true,
      });
      return true;
    });
  }

  return {
    /** The thumbnail of an image served from its original: its pyramid's top level (at most 512 px a side), cut from it. */
    async thumbnail(imageId: string): Promise<{ key: string; body: Buffer } | null> {
      const [layer] = await db
        .select({ key: imageLayers.pyramidKey })
        .from(imageLayers)
        .innerJoin(images, eq(images.id, imageLayers.imageId))
        .where(and(eq(imageLayers.imageId, imageId), SERVABLE_FROM_ORIGINAL));
      if (layer == null) return null;
      const served = await deps.originals.served(layer.key);
      const full = served?.levels[0];
      const top = served?.levels.at(-1);
      if (served == null || full == null || top == null) return null;
      const request = {
        region: { x: 0, y: 0, width: full.width, height: full.height },
        width: top.width,
        height: top.height,
        rotation: 0 as const,
        mirror: false,
        quality: 'default' as const,
        format: 'jpg' as const,
      };
      const { body } = await served.render(request, tiles);
      return { key: `${layer.key}#thumbnail`, body };
    },

    /** Whether the image became viewable; never fails: an original that cannot be read so waits for its conversion. */
    async prepare(imageId: string): Promise<boolean> {
      try {
        return await prepare(imageId);
      } catch (error) {
        log.info({ imageId, err: error }, 'original not viewable before conversion');
        return false;
      }
    },
  };
}

export type EarlyView = ReturnType<typeof createEarlyView>;
