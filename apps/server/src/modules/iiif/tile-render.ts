import type { Sharp } from 'sharp';
import { sharp } from '../../imaging/sharp-setup.ts';
import { JPEG_COMPRESSION, jpegFrameHeader, type TiffPage } from '../../imaging/index.ts';
import type { ImageRequest } from './iiif-params.ts';
import type { OpenPyramid } from './pyramid-cache.ts';
import type { TileCache } from './tile-cache.ts';
import { regionFromStoredTiles } from './tile-region.ts';

// Full chroma, as the stored pyramid has it: halved chroma alone costs ~5/255 of difference on H&E stains.
export const JPEG_QUALITY = 95;
const CUT_JPEG_QUALITY = 100;

export interface RenderedImage {
  body: Buffer;
  contentType: 'image/jpeg' | 'image/png';
  /** True when the stored tile went out as it was stored, without decoding. */
  passThrough: boolean;
  /** The tile cache's key when the body is that entry itself, uncropped: the same request answers with it again. */
  cacheKey?: string;
}

/**
 * A stored JPEG-in-TIFF tile as a complete JPEG: the page's shared tables (JPEGTables without
 * its EOI) followed by the tile's own stream (without its SOI). Pixels are identical to a decode.
 */
export function spliceJpegTile(tables: Buffer | null, tile: Buffer): Buffer {
  if (tables == null || tables.length < 4) return tile;
  return Buffer.concat([tables.subarray(0, tables.length - 2), tile.subarray(2)]);
}

/**
 * A copy of a baseline or progressive JPEG that declares fewer rows: decoders then stop before the
 * rest. Bottom-edge tiles are stored padded to the full tile height, so this crops them without
 * decoding and re-encoding. Null when no frame header is found.
 */
export function cropJpegRows(jpeg: Buffer, height: number): Buffer | null {
  const frame = jpegFrameHeader(jpeg);
  if (frame == null) return null;
  const copy = Buffer.from(jpeg);
  copy.writeUInt16BE(height, frame + 5);
  return copy;
}

/**
 * The level whose downsample is the largest one not above what the request asks for. Level L is
 * the full image shrunk by exactly 2^L (dzsave rounds a level's size up, older pyramids from
 * tiffsave down), so positions map by powers of two whichever way the level's size was rounded.
 */
export function chooseLevel(levels: readonly unknown[], request: ImageRequest): number {
  // The larger ratio: an edge tile rounded up by a pixel on one side must not fall back to level 0.
  const wanted = Math.max(request.region.width / request.width, request.region.height / request.height);
  let chosen = 0;
  while (chosen + 1 < levels.length && 2 ** (chosen + 1) <= wanted + 1e-9) chosen++;
  return chosen;
}

async function readTile(pyramid: OpenPyramid, page: TiffPage, index: number): Promise<Buffer> {
  const offset = page.tileOffsets[index];
  const length = page.tileByteCounts[index];
  if (offset == null || length == null) throw new Error(`tile ${index} is missing from ${pyramid.key}`);
  const tables = page.jpegTables;
  if (pyramid.readInto != null && length > 2) {
    // The spliced JPEG in one uninitialised buffer, filled completely: the tables without their EOI, then the
    // tile read from disk after its SOI. Saves zero-filling, and copying, ~100 KB per tile.
    const head = tables != null && tables.length >= 4 ? tables.length - 2 : 0;
    const skip = head > 0 ? 2 : 0;
    const body = Buffer.allocUnsafe(head + length - skip);
    if (head > 0) tables!.copy(body, 0, 0, head);
    const read = await pyramid.readInto(body, head, length - skip, offset + skip);
    if (read === length - skip) return body;
    throw new Error(`tile ${index} of ${pyramid.key} is truncated`);
  }
  return spliceJpegTile(tables, await pyramid.reader.read(offset, length));
}

/** sharp's input options for a page, a SubIFD of one (an OME-TIFF's reduced level) among them. */
export function pageInput(page: Pick<TiffPage, 'index' | 'subIfd'>): { page: number; subifd: number } {
  return { page: page.index, subifd: page.subIfd ?? -1 };
}

const tileKey = (pyramid: OpenPyramid, page: TiffPage, index: number) => `${pyramid.key}#${page.offset}#${index}`;

/** A stored tile as a complete JPEG, from the cache when it was served lately. */
function storedTile(pyramid: OpenPyramid, page: TiffPage, index: number, tiles: TileCache): Promise<Buffer> {
  return tiles.get(tileKey(pyramid, page, index), () => readTile(pyramid, page, index));
}

/**
 * The answer when it is a stored tile already in the cache, or null: what `renderImage` would give, without a
 * promise, for the lean tile path (a warm viewer's tiles are nearly all such).
 */
export function cachedStoredTile(pyramid: OpenPyramid, request: ImageRequest, tiles: TileCache): RenderedImage | null {
  const stored = storedTileFor(pyramid, request);
  const key = stored == null ? undefined : tileKey(pyramid, stored.page, stored.index);
  const tile = key == null ? undefined : tiles.peek(key);
  if (stored == null || tile == null) return null;
  if (!stored.crop) return { body: tile, contentType: 'image/jpeg', passThrough: true, cacheKey: key };
  const body = cropJpegRows(tile, request.height);
  return body == null ? null : { body, contentType: 'image/jpeg', passThrough: true };
}

/**
 * The stored tile that answers the request by itself: a full-quality JPEG of exactly one grid
 * cell at the requested scale. Bottom-edge cells are stored padded; they qualify when the requested
 * rows lie within the level's real pixels, and are then cropped by their frame header.
 */
function storedTileFor(
  pyramid: OpenPyramid,
  request: ImageRequest,
): { page: TiffPage; index: number; crop: boolean } | null {
  if (request.format !== 'jpg' || request.rotation !== 0 || request.mirror) return null;
  if (request.quality !== 'default' && request.quality !== 'color') return null;
  const level = Math.round(Math.log2(request.region.width / request.width));
  const page = pyramid.levels[level];
  if (page == null || page.compression !== JPEG_COMPRESSION || page.tileWidth == null || page.tileHeight == null)
    return null;
  const scale = 2 ** level;
  const { x, y, width, height } = request.region;
  const cellWidth = page.tileWidth * scale;
  const cellHeight = page.tileHeight * scale;
  if (x % cellWidth !== 0 || y % cellHeight !== 0) return null;
  const column = x / cellWidth;
  const row = y / cellHeight;
  const validWidth = Math.min(page.tileWidth, page.width - column * page.tileWidth);
  const validHeight = Math.min(page.tileHeight, page.height - row * page.tileHeight);
  const fullCell =
    width === Math.min(cellWidth, pyramid.levels[0]!.width - x) &&
    height === Math.min(cellHeight, pyramid.levels[0]!.height - y);
  if (!fullCell || request.width > validWidth || request.height > validHeight) return null;
  // Only rows can be dropped by the frame header: the width fixes how the coded data splits into blocks.
  if (request.width !== page.tileWidth) return null;
  // The request must be the whole cell at this scale, not a smaller picture of it.
  if (validWidth - request.width > 1 || validHeight - request.height > 1) return null;
  const crop = request.height !== page.tileHeight;
  return { page, index: row * Math.ceil(page.width / page.tileWidth) + column, crop };
}

export function finish(image: Sharp, request: ImageRequest, quality: number): Sharp {
  let result = image;
  if (request.mirror) result = result.flop();
  if (request.rotation !== 0) result = result.rotate(request.rotation);
  if (request.quality === 'gray') result = result.grayscale();
  if (request.quality === 'bitonal') result = result.grayscale().threshold(128);
  return request.format === 'png'
    ? result.png({ compressionLevel: 6 })
    : // optimiseCoding (Huffman tables per image) costs ~2 ms a tile for a few percent of bytes.
      result.jpeg({ quality, chromaSubsampling: '4:4:4', optimiseCoding: false });
}

/**
 * Answers a IIIF image request from a pyramid: an aligned interior tile goes out as stored; an
 * edge tile is cut from its single stored tile; anything else is cut from the best level's stored
 * tiles (or, for large areas, read from the level by libvips) and scaled.
 */
export async function renderImage(
  pyramid: OpenPyramid,
  request: ImageRequest,
  tiles: TileCache,
): Promise<RenderedImage> {
  const contentType = request.format === 'png' ? 'image/png' : 'image/jpeg';
  const stored = storedTileFor(pyramid, request);
  if (stored != null) {
    const tile = await storedTile(pyramid, stored.page, stored.index, tiles);
    const body = stored.crop ? cropJpegRows(tile, request.height) : tile;
    if (body != null) return { body, contentType, passThrough: true };
  }

  const level = chooseLevel(pyramid.levels, request);
  const page = pyramid.levels[level]!;
  const scale = 2 ** -level;
  const left = Math.min(Math.floor(request.region.x * scale), page.width - 1);
  const top = Math.min(Math.floor(request.region.y * scale), page.height - 1);
  let width = Math.max(1, Math.min(Math.round(request.region.width * scale), page.width - left));
  let height = Math.max(1, Math.min(Math.round(request.region.height * scale), page.height - top));
  // Clients round a level's edge up (ceil) where libvips rounded it down: within a pixel, cut exactly
  // what was asked and repeat the last row or column rather than stretch the whole tile by one pixel.
  const withinAPixel = Math.abs(width - request.width) <= 1 && Math.abs(height - request.height) <= 1;
  if (withinAPixel) {
    width = Math.min(request.width, page.width - left);
    height = Math.min(request.height, page.height - top);
  }

  const rect = { left, top, width, height };
  const fromTiles = await regionFromStoredTiles(page, rect, (index) => storedTile(pyramid, page, index, tiles));
  const source =
    fromTiles?.image ??
    sharp(await pyramid.localPath(), { ...pageInput(page), limitInputPixels: false, sequentialRead: false }).extract(
      rect,
    );
  let resized = source;
  if (withinAPixel && (width < request.width || height < request.height)) {
    const extended = await source
      .extend({ right: request.width - width, bottom: request.height - height, extendWith: 'copy' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    resized = sharp(extended.data, { raw: extended.info });
  } else if (width !== request.width || height !== request.height) {
    // Catmull-Rom: within 0.1/255 of Lanczos-3 on a 512 → 400 cut of tissue (both ~2.3/255 from a lossless
    // Lanczos-3 reference), for ~10% less time per request; Mitchell and bilinear blur to 2.8 and 3.0.
    resized = source.resize(request.width, request.height, { fit: 'fill', kernel: 'cubic' });
  }
  // A cut of one stored tile is already JPEG: a second lossy pass at the usual quality would double its error.
  const quality = fromTiles?.tiles === 1 ? CUT_JPEG_QUALITY : JPEG_QUALITY;
  return { body: await finish(resized, request, quality).toBuffer(), contentType, passThrough: false };
}
