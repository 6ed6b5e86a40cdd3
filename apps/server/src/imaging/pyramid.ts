import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { remainingMs, type ConvertContext } from './context.ts';
import { ImagingTimeoutError } from './errors.ts';
import { readTiffStructure } from './tiff-structure.ts';

export const TILE_SIZE = 512;
/**
 * libvips keeps full chroma (4:4:4) from quality 90 up and halves it below. Halved chroma blurs
 * stain edges: a tile then differs from a direct OpenSlide read by ~5/255 on average, against
 * ~0.3/255 at 90, for about three times the bytes. Diagnosis is worth the bytes.
 */
export const JPEG_QUALITY = 90;
export const THUMBNAIL_SIZE = 512;

export function layerFileName(layerNumber: number): string {
  return `layer-${layerNumber}.tif`;
}

/** Writes to a `.partial` name first, so a crash never leaves a plausible-looking but incomplete output. */
export async function writeAtomically(
  finalPath: string,
  write: (partialPath: string) => Promise<unknown>,
  partialPath = `${finalPath}.partial`,
): Promise<string> {
  try {
    await write(partialPath);
    await rename(partialPath, finalPath);
    return finalPath;
  } catch (error) {
    await unlink(partialPath).catch(() => undefined);
    throw error;
  }
}

/** sharp cannot be cancelled mid-run; its own timeout (whole seconds) bounds it, and we check the deadline between steps. */
export function sharpTimeout(context: ConvertContext): { seconds: number } {
  return { seconds: Math.max(1, Math.ceil(remainingMs(context) / 1000)) };
}

export function rethrowSharpTimeout(error: unknown): never {
  if (error instanceof Error && /timeout/i.test(error.message)) {
    throw new ImagingTimeoutError(`sharp exceeded its time limit: ${error.message}`);
  }
  throw error;
}

/** The same layout `vips tiffsave --tile --pyramid --compression jpeg --Q 90 --bigtiff` writes. */
export async function writeSharpPyramid(image: Sharp, context: ConvertContext, layerNumber: number): Promise<string> {
  const target = path.join(context.workDir, layerFileName(layerNumber));
  return writeAtomically(target, (partial) =>
    image
      .timeout(sharpTimeout(context))
      .tiff({
        tile: true,
        tileWidth: TILE_SIZE,
        tileHeight: TILE_SIZE,
        pyramid: true,
        compression: 'jpeg',
        quality: JPEG_QUALITY,
        bigtiff: true,
      })
      .toFile(partial)
      .catch(rethrowSharpTimeout),
  );
}

/** Thumbnail from the smallest pyramid page that still has enough pixels, so huge slides cost no full decode. */
export async function writeThumbnail(context: ConvertContext, pyramidPath: string): Promise<string> {
  const handle = await open(pyramidPath, 'r');
  const structure = await readTiffStructure(handle).finally(() => handle.close());
  const [base] = structure.pages;
  if (!base) throw new Error(`Pyramid ${pyramidPath} has no pages`);
  const scale = Math.min(1, THUMBNAIL_SIZE / base.width, THUMBNAIL_SIZE / base.height);
  const needWidth = Math.round(base.width * scale);
  const needHeight = Math.round(base.height * scale);
  const page = structure.pages.filter((p) => p.width >= needWidth && p.height >= needHeight).at(-1) ?? base;
  const target = path.join(context.workDir, 'thumbnail.jpg');
  return writeAtomically(target, (partial) =>
    sharp(pyramidPath, { page: page.index })
      .timeout(sharpTimeout(context))
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: JPEG_QUALITY })
      .toFile(partial)
      .catch(rethrowSharpTimeout),
  );
}
