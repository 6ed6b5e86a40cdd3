import { and, eq, ne, notExists } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { cases, imageAssociated, imageLayers, images } from '../../db/schema/index.ts';
import { adjustUsage } from '../cases/case-storage.ts';
import { withoutColumns } from './image-copy.ts';

/**
 * Gives the conversion an image just committed to the other images that name the same original and still wait
 * for their first conversion (`uploaded`, no layer yet): the demo's slides, a copy made before its source was
 * converted. Their rows get the source's layers, side pictures and metadata by reference, as a copy does
 * (image-copy.ts), so the same bytes are converted once and deletion still goes by reference. A waiting image's
 * own conversion job, when it runs later, finds it available and does nothing. Runs in the conversion's commit
 * transaction; an image another transaction holds is left to its own job. Returns the images filled.
 */
export async function shareConversion(tx: Tx, sourceId: string): Promise<string[]> {
  const [source] = await tx.select().from(images).where(eq(images.id, sourceId));
  if (source?.originalKey == null) return [];
  const waiting = await tx
    .select({ id: images.id, ownerOrganizationId: cases.ownerOrganizationId })
    .from(images)
    .innerJoin(cases, eq(cases.id, images.caseId))
    .where(
      and(
        eq(images.originalKey, source.originalKey),
        eq(images.status, 'uploaded'),
        ne(images.id, sourceId),
        notExists(tx.select({ id: imageLayers.id }).from(imageLayers).where(eq(imageLayers.imageId, images.id))),
      ),
    )
    .for('update', { of: images, skipLocked: true });
  const layers = await tx.select().from(imageLayers).where(eq(imageLayers.imageId, sourceId));
  if (waiting.length === 0 || layers.length === 0) return [];
  const associated = await tx.select().from(imageAssociated).where(eq(imageAssociated.imageId, sourceId));
  const pyramidal = layers.reduce((sum, layer) => sum + layer.pyramidalSize, 0);
  for (const image of waiting) {
    await tx
      .insert(imageLayers)
      .values(
        layers.map((layer) => ({ ...withoutColumns(layer, ['id', 'createdAt', 'updatedAt']), imageId: image.id })),
      );
    if (associated.length > 0) {
      await tx
        .insert(imageAssociated)
        .values(associated.map((picture) => ({ ...withoutColumns(picture, ['id', 'createdAt']), imageId: image.id })));
    }
    await tx
      .update(images)
      .set({
        status: 'available',
        format: source.format,
        width: source.width,
        height: source.height,
        resolutionX: source.resolutionX,
        resolutionY: source.resolutionY,
        resolutionUnit: source.resolutionUnit,
        magnification: source.magnification,
        scannedIn: source.scannedIn,
        scannedAt: source.scannedAt,
        thumbnailKey: source.thumbnailKey,
        conversionProgress: null,
        processErrorCode: null,
        processErrorMessage: null,
      })
      .where(eq(images.id, image.id));
    await adjustUsage(tx, image.ownerOrganizationId, { original: 0, pyramidal, attachment: 0 }, 1);
  }
  return waiting.map((image) => image.id);
}
