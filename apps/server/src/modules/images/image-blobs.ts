import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { unreferencedKeys } from '../cases/case-storage.ts';

/** Copies of an image share its blobs: a blob may only go once no row refers to it. */
export { unreferencedKeys };

/**
 * Where an image's files live. Keys never contain the user's filename (it goes back in
 * Content-Disposition instead), so any filename the upload accepts is safe here. Each conversion
 * writes under a fresh folder, so a reprocess never overwrites the pyramid a viewer is reading.
 */
export const imageBlobKeys = {
  original: (imageId: string) => `images/${imageId}/original`,
  /** The folder of one conversion attempt. */
  conversion: (imageId: string) => `images/${imageId}/conversions/${randomUUID()}`,
  layer: (folder: string, layerNumber: number) => `${folder}/layer-${layerNumber}.tif`,
  thumbnail: (folder: string) => `${folder}/thumbnail.jpg`,
  associated: (folder: string, kind: string) => `${folder}/${kind}.jpg`,
  prefix: (imageId: string) => `images/${imageId}/`,
};

/** Deletes the blobs under an image's folder that nothing refers to: leftovers of a crashed attempt, a replaced pyramid, a deleted image. */
export async function sweepImageBlobs(db: Db, blobs: BlobStore, imageId: string): Promise<number> {
  const keys: string[] = [];
  for await (const key of blobs.list(imageBlobKeys.prefix(imageId))) keys.push(key);
  const unused = await unreferencedKeys(db, keys);
  await blobs.deleteMany(unused);
  return unused.length;
}
