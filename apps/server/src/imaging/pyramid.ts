import { open, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Sharp } from 'sharp';
import { sharp } from './sharp-setup.ts';
import { remainingMs, type ConvertContext } from './context.ts';
import { ImagingTimeoutError } from './errors.ts';
import { folderTiles, googleTilesSize, googleTilesToTiff, type BaseTiles, type ImageSize } from './google-tiles.ts';
import { zipTiles } from './google-tiles-zip.ts';
import { readTiffStructure } from './tiff-structure.ts';

export const TILE_SIZE = 512;
/**
 * Pyramid tiles are JPEG 94 in YCbCr with full chroma (4:4:4). Halved chroma blurs stain edges (a
 * tile then differs from a direct OpenSlide read by ~5/255 on average), and below 93 the densest
 * tissue tiles of the real Aperio slide pass 3/255. The RGB JPEG libvips' tiffsave writes from 90 up
 * is as faithful but 25–40% larger, and every tile request sends those bytes.
 */
export const JPEG_QUALITY = 94;
/**
 * Restart markers every 8 blocks (64 px), in blocks: a cut of a stored tile then decodes only the
 * segments it covers (jpeg-restart-crop.ts), a quarter of the work for a region across four tiles,
 * for ~1.5% more bytes.
 */
export const RESTART_INTERVAL = 8;
/** dzsave's tile format in the libvips CLI's option syntax. */
export const TILE_SUFFIX = `.jpg[Q=${JPEG_QUALITY},subsample-mode=off,strip,restart-interval=${RESTART_INTERVAL}]`;
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

/** Where a pyramid's tiles are written before they are packed: a folder (sharp's) or one zip (the vips command line's). */
export type TilesContainer = 'folder' | 'zip';

/** Where a layer's tiles are written before they are packed (conversion progress counts them there). */
export function tilesPath(workDir: string, layerNumber: number, container: TilesContainer): string {
  return path.join(workDir, `tiles-${layerNumber}${container === 'zip' ? '.zip' : ''}`);
}

/**
 * Writes a pyramid by letting `makeTiles` write dzsave's Google layout to `output` (inside workDir; a folder, or one
 * zip) and packing it into one JPEG-tiled TIFF, full-resolution tiles from `base` where it has them. `makeTiles`
 * returns the image's size, or null for the size dzsave recorded. The tiles are removed whatever happens.
 */
export async function writeTiledPyramid(
  context: ConvertContext,
  layerNumber: number,
  makeTiles: (output: string) => Promise<ImageSize | null>,
  { container = 'folder', base }: { container?: TilesContainer; base?: BaseTiles } = {},
): Promise<string> {
  const output = tilesPath(context.workDir, layerNumber, container);
  return writeAtomically(path.join(context.workDir, layerFileName(layerNumber)), async (partial) => {
    try {
      const size = await makeTiles(output);
      remainingMs(context);
      const tiles = container === 'zip' ? await zipTiles(output) : folderTiles(output);
      try {
        await googleTilesToTiff(tiles, size ?? (await googleTilesSize(tiles)), TILE_SIZE, partial, base);
      } finally {
        await tiles.close();
      }
    } finally {
      await rm(output, { recursive: true, force: true });
    }
  });
}

/** The pyramid of an image sharp reads; same tiles as the OpenSlide path's. */
export function writeSharpPyramid(image: Sharp, context: ConvertContext, layerNumber: number): Promise<string> {
  return writeTiledPyramid(context, layerNumber, (folder) =>
    image
      .timeout(sharpTimeout(context))
      // Optimised Huffman tables save ~10% of bytes for ~40% more time; the OpenSlide path's tiles have none either.
      .jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:4:4', optimiseCoding: false })
      .tile({ size: TILE_SIZE, overlap: 0, layout: 'google', depth: 'onetile', skipBlanks: -1 })
      .toFile(folder)
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
  return writeThumbnailOf(context, pyramidPath, page.index);
}

/**
 * The thumbnail of one image file (of one page of it), at most THUMBNAIL_SIZE px on its longer side, or of exactly
 * `size` when the picture is a level whose rounded proportions differ slightly from the slide's.
 */
export function writeThumbnailOf(
  context: ConvertContext,
  file: string | Buffer,
  page = 0,
  size?: { width: number; height: number },
): Promise<string> {
  const target = path.join(context.workDir, 'thumbnail.jpg');
  return writeAtomically(target, (partial) =>
    sharp(file, { page })
      .timeout(sharpTimeout(context))
      .resize(
        size
          ? { ...size, fit: 'fill' }
          : { width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true },
      )
      .jpeg({ quality: JPEG_QUALITY })
      .toFile(partial)
      .catch(rethrowSharpTimeout),
  );
}
