import { and, eq, sql } from 'drizzle-orm';
import type { ConvertedImage } from '../../imaging/index.ts';
import { imageLayers } from '../../db/schema/index.ts';
import type { Tx } from '../../db/client.ts';

export interface NewLayer {
  layer: ConvertedImage['layers'][number];
  key: string;
  size: number;
}

/**
 * Puts a conversion's layers in place of the image's old ones. What was drawn, imported or predicted on an old
 * layer stays with the new layer of the same number and size: a reprocess re-reads the same original, so the
 * image's pixel coordinates still hold.
 *
 * - A layer served from the original becomes the pyramid's layer in place, keeping its id: an open viewer's tile
 *   URL stays valid (those tiles are cached for seconds only).
 * - An old pyramid's layer is replaced by a new row: its tiles are cached for a year under its id, so the new
 *   pyramid needs a new URL. Every row naming the old layer (`image_layer_id`, by the schema's convention; some
 *   tables carry it without a foreign key) is moved to the new one before the old row goes.
 */
export async function replaceLayers(tx: Tx, imageId: string, layers: readonly NewLayer[]): Promise<void> {
  const old = await tx
    .select({
      id: imageLayers.id,
      layerNumber: imageLayers.layerNumber,
      width: imageLayers.width,
      height: imageLayers.height,
      fromOriginal: imageLayers.fromOriginal,
    })
    .from(imageLayers)
    .where(eq(imageLayers.imageId, imageId));
  const moves: { from: string; to: string }[] = [];
  const kept = new Set<string>();
  // Out of the way of (image, layer number)'s uniqueness until the old rows go at the end of this transaction.
  await tx
    .update(imageLayers)
    .set({ layerNumber: sql`-1 - ${imageLayers.layerNumber}` })
    .where(and(eq(imageLayers.imageId, imageId), eq(imageLayers.fromOriginal, false)));
  for (const { layer, key, size } of layers) {
    const row = {
      imageId,
      layerNumber: layer.layerNumber,
      width: layer.width,
      height: layer.height,
      metadata: layer.metadata,
      pyramidKey: key,
      pyramidalSize: size,
      fromOriginal: false,
    };
    const same = old.find(
      (candidate) =>
        !kept.has(candidate.id) &&
        candidate.layerNumber === layer.layerNumber &&
        candidate.width === layer.width &&
        candidate.height === layer.height,
    );
    if (same?.fromOriginal) {
      kept.add(same.id);
      await tx.update(imageLayers).set(row).where(eq(imageLayers.id, same.id));
      continue;
    }
    const [created] = await tx.insert(imageLayers).values(row).returning({ id: imageLayers.id });
    if (same) moves.push({ from: same.id, to: created!.id });
  }
  if (moves.length > 0) await moveLayerRows(tx, moves);
  const gone = old.filter((row) => !kept.has(row.id)).map((row) => row.id);
  for (const id of gone) await tx.delete(imageLayers).where(eq(imageLayers.id, id));
}

/** Every table with an `image_layer_id` column other than image_layers itself. */
async function layerColumnTables(tx: Tx): Promise<string[]> {
  const { rows } = await tx.execute<{ table: string }>(sql`
    SELECT table_name AS "table" FROM information_schema.columns
    WHERE table_schema = current_schema() AND column_name = 'image_layer_id' AND table_name <> 'image_layers'
    ORDER BY table_name`);
  return rows.map((row) => row.table);
}

async function moveLayerRows(tx: Tx, moves: readonly { from: string; to: string }[]): Promise<void> {
  const from = sql.param(moves.map((move) => move.from));
  const to = sql.param(moves.map((move) => move.to));
  for (const table of await layerColumnTables(tx)) {
    await tx.execute(sql`
      UPDATE ${sql.identifier(table)} t SET image_layer_id = m.to_id
      FROM unnest(${from}::uuid[], ${to}::uuid[]) AS m(from_id, to_id)
      WHERE t.image_layer_id = m.from_id`);
  }
}
