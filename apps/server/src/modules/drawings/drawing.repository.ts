import { type DrawingShape, type DrawingStyle, type DrawingVisibility } from '@pathology/contract';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, drawings, imageLayers, images } from '../../db/schema/index.ts';
import { accountName } from '../accounts/account-name.ts';
import type { PreparedGeometry } from './prepared-geometry.ts';

export interface NewDrawing {
  id?: string;
  imageId: string;
  imageLayerId: string;
  accountId: string;
  visibility: DrawingVisibility;
  title: string;
  shapeType: DrawingShape;
  geometry: PreparedGeometry;
  style: DrawingStyle;
}

export type DrawingChanges = Partial<Pick<NewDrawing, 'visibility' | 'title' | 'geometry' | 'style'>>;

/** Who reads: private drawings of others stay hidden, and `editable` is worked out for them. */
export interface Reader {
  accountId: string;
  /** May edit the case, which lets them change or delete public drawings of others. */
  canEditCase: boolean;
}

/** Rows sent per database round trip while streaming a layer's drawings. */
const STREAM_BATCH = 5_000;

/** The fields of a drawing but its geometry, as a JSON object PostgreSQL writes. */
function drawingFields(reader: Reader): SQL<string> {
  return sql<string>`json_build_object(
    'id', d.id, 'imageId', d.image_id, 'imageLayerId', d.image_layer_id,
    'authorAccountId', d.account_id,
    'authorName', ${accountName},
    'visibility', d.visibility, 'title', d.title, 'shapeType', d.shape_type, 'style', d.style,
    'createdAt', d.created_at, 'updatedAt', d.updated_at,
    'editable', d.account_id = ${reader.accountId} OR (d.visibility = 'public' AND ${reader.canEditCase}::boolean)
  )::text`;
}

/** One drawing with its full geometry (GeoJSON-like). */
const drawingJson = (reader: Reader) =>
  sql<string>`left(${drawingFields(reader)}, -1) || ',"geometry":' || d.geometry::text || '}'`;

/**
 * One drawing of a list, its geometry compact. The stored text is appended as it is, so a layer of
 * ten thousand outlines is read and sent without PostgreSQL or Node converting any of it.
 */
const compactDrawingJson = (reader: Reader) =>
  sql<string>`left(${drawingFields(reader)}, -1) || ',"geometry":' || coalesce(d.compact_geometry, d.geometry::text) || '}'`;

/** Public drawings, and the reader's own private ones. */
const visibleTo = (reader: Reader) => sql`(d.visibility = 'public' OR d.account_id = ${reader.accountId})`;

/** Both stored forms of a geometry, on the 0.1-pixel grid the compact one keeps, from their prepared texts. */
const storedGeometry = (geometry: PreparedGeometry) => ({
  geometry: sql`${geometry.json}::jsonb`,
  compactGeometry: geometry.compactJson,
});

export function createDrawingRepository(db: Db) {
  async function* batches(where: SQL, reader: Reader): AsyncGenerator<string[]> {
    let after: string | null = null;
    for (;;) {
      const page: { id: string; json: string }[] = (
        await db.execute<{ id: string; json: string }>(sql`
          SELECT d.id, ${compactDrawingJson(reader)} AS json
          FROM drawings d LEFT JOIN accounts ON accounts.id = d.account_id
          WHERE ${where} AND ${visibleTo(reader)} ${after == null ? sql`` : sql`AND d.id > ${after}`}
          ORDER BY d.id LIMIT ${STREAM_BATCH}`)
      ).rows;
      if (page.length > 0) yield page.map((row) => row.json);
      if (page.length < STREAM_BATCH) return;
      after = page.at(-1)!.id;
    }
  }

  return {
    /** The case of an image and the layer's size in pixels, when the layer is one of the image's layers. */
    async findLayer(
      imageId: string,
      layerId: string,
    ): Promise<{ caseId: string; width: number; height: number } | undefined> {
      const [row] = await db
        .select({ caseId: images.caseId, width: imageLayers.width, height: imageLayers.height })
        .from(imageLayers)
        .innerJoin(images, eq(images.id, imageLayers.imageId))
        .where(and(eq(imageLayers.id, layerId), eq(imageLayers.imageId, imageId)));
      return row;
    },

    /**
     * A layer's drawings the reader may see, as JSON texts in batches; `only` narrows to one visibility
     * (PRIVATE = the reader's own private drawings).
     */
    layerDrawings(layerId: string, reader: Reader, only?: DrawingVisibility): AsyncGenerator<string[]> {
      const narrowed = only == null ? sql`` : sql`AND d.visibility = ${only}`;
      return batches(sql`d.image_layer_id = ${layerId} ${narrowed}`, reader);
    },

    /** Every drawing of an image the reader may see, by layer then creation, for export. */
    async imageDrawings(imageId: string, reader: Reader) {
      return db
        .select({
          id: drawings.id,
          imageLayerId: drawings.imageLayerId,
          layerNumber: imageLayers.layerNumber,
          title: drawings.title,
          shapeType: drawings.shapeType,
          visibility: drawings.visibility,
          geometry: drawings.geometry,
          style: drawings.style,
          authorName: accountName,
          createdAt: drawings.createdAt,
        })
        .from(drawings)
        .innerJoin(imageLayers, eq(imageLayers.id, drawings.imageLayerId))
        .leftJoin(accounts, eq(accounts.id, drawings.accountId))
        .where(
          and(
            eq(drawings.imageId, imageId),
            sql`(${drawings.visibility} = 'public' OR ${drawings.accountId} = ${reader.accountId})`,
          ),
        )
        .orderBy(imageLayers.layerNumber, drawings.createdAt, drawings.id);
    },

    /** How many drawings of each image the reader may see (images without any are left out). */
    async countByImage(imageIds: readonly string[], reader: Reader): Promise<Map<string, number>> {
      const { rows } = await db.execute<{ imageId: string; count: number }>(sql`
        SELECT d.image_id AS "imageId", count(*)::int AS count FROM drawings d
        WHERE d.image_id = ANY(${sql.param([...imageIds])}::uuid[]) AND ${visibleTo(reader)}
        GROUP BY d.image_id`);
      return new Map(rows.map((row) => [row.imageId, row.count]));
    },

    /** The images to export with what naming and measuring them needs; unknown ids are left out. */
    async downloadableImages(imageIds: readonly string[]) {
      const rows = await db
        .select({
          id: images.id,
          caseId: images.caseId,
          displayName: images.displayName,
          resolutionX: images.resolutionX,
          resolutionY: images.resolutionY,
          resolutionUnit: images.resolutionUnit,
        })
        .from(images)
        .where(inArray(images.id, [...imageIds]));
      return rows.map(({ resolutionX, resolutionY, resolutionUnit, ...image }) => ({
        ...image,
        resolution:
          resolutionX != null && resolutionY != null && resolutionUnit != null
            ? { x: resolutionX, y: resolutionY, unit: resolutionUnit }
            : null,
      }));
    },

    /** One drawing as the reader sees it, or undefined when it is not on this layer or hidden from them. */
    async findJson(layerId: string, drawingId: string, reader: Reader): Promise<string | undefined> {
      const { rows } = await db.execute<{ json: string }>(sql`
        SELECT ${drawingJson(reader)} AS json
        FROM drawings d LEFT JOIN accounts ON accounts.id = d.account_id
        WHERE d.id = ${drawingId} AND d.image_layer_id = ${layerId} AND ${visibleTo(reader)}`);
      return rows[0]?.json;
    },

    async findOwnership(layerId: string, drawingId: string) {
      const [row] = await db
        .select({
          accountId: drawings.accountId,
          visibility: drawings.visibility,
          shapeType: drawings.shapeType,
          style: drawings.style,
        })
        .from(drawings)
        .where(and(eq(drawings.id, drawingId), eq(drawings.imageLayerId, layerId)));
      return row;
    },

    /** The new drawing's id, or undefined when a drawing with the given id exists. */
    async create(drawing: NewDrawing): Promise<string | undefined> {
      const [row] = await db
        .insert(drawings)
        .values({ ...drawing, ...storedGeometry(drawing.geometry) })
        .onConflictDoNothing()
        .returning({ id: drawings.id });
      return row?.id;
    },

    async update(drawingId: string, { geometry, ...changes }: DrawingChanges): Promise<void> {
      await db
        .update(drawings)
        .set({ ...changes, ...(geometry ? storedGeometry(geometry) : {}), updatedAt: sql`now()` })
        .where(eq(drawings.id, drawingId));
    },

    async delete(drawingId: string): Promise<void> {
      await db.delete(drawings).where(eq(drawings.id, drawingId));
    },
  };
}

export type DrawingRepository = ReturnType<typeof createDrawingRepository>;
