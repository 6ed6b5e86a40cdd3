import type { Sharp } from 'sharp';
import { sharp } from '../../imaging/sharp-setup.ts';
import { JPEG_COMPRESSION, type TiffPage } from '../../imaging/index.ts';
import { boxShrink } from './box-shrink.ts';
import { IiifRequestError, type ImageRequest, type Region } from './iiif-params.ts';
import { sourceFor, type OriginalPlan } from './original-plan.ts';
import type { OpenPyramid } from './pyramid-cache.ts';
import type { TileCache } from './tile-cache.ts';
import { regionFromStoredTiles, type Rect } from './tile-region.ts';
import {
  chooseLevel,
  finish,
  JPEG_QUALITY,
  pageInput,
  renderImage,
  spliceJpegTile,
  type RenderedImage,
} from './tile-render.ts';

/**
 * An Adobe APP14 segment declaring "no colour transform". Aperio stores RGB JPEG tiles (Photometric 2)
 * without one, which a decoder would otherwise take for YCbCr (libtiff knows from the tag; a bare JPEG cannot).
 */
const ADOBE_RGB = Buffer.from([
  0xff, 0xee, 0x00, 0x0e, 0x41, 0x64, 0x6f, 0x62, 0x65, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00,
]);
const PHOTOMETRIC_RGB = 2;
/** The most pixels of the original one request may have decoded (a large region at full detail). */
export const MAX_REQUEST_DECODE = 64 * 1024 * 1024;

/** A stored JPEG tile of an original as a complete JPEG that any decoder reads in the right colours. */
export function originalJpegTile(page: Pick<TiffPage, 'jpegTables' | 'photometric'>, stored: Buffer): Buffer {
  const jpeg = spliceJpegTile(page.jpegTables, stored);
  // An NDPI restart segment is read with the restart marker after it (original-ndpi.ts): its end is the tile's.
  const last = jpeg[jpeg.length - 1]!;
  if (jpeg[jpeg.length - 2] === 0xff && last >= 0xd0 && last <= 0xd7) jpeg[jpeg.length - 1] = 0xd9;
  if (page.photometric !== PHOTOMETRIC_RGB) return jpeg;
  return Buffer.concat([jpeg.subarray(0, 2), ADOBE_RGB, jpeg.subarray(2)]);
}

async function readOriginalTile(original: OpenPyramid, page: TiffPage, index: number): Promise<Buffer> {
  const offset = page.tileOffsets[index];
  const length = page.tileByteCounts[index];
  if (offset == null || length == null) throw new Error(`tile ${index} is missing from ${original.key}`);
  const stored = await original.reader.read(offset, length);
  if (stored.length !== length) throw new Error(`tile ${index} of ${original.key} is truncated`);
  return originalJpegTile(page, stored);
}

/** The part of a source page under a full-resolution region, at least one pixel, within the page. */
export function pageRect(page: { width: number; height: number }, scale: number, region: Region): Rect {
  const left = Math.min(Math.floor(region.x / scale), page.width - 1);
  const top = Math.min(Math.floor(region.y / scale), page.height - 1);
  const right = Math.min(page.width, Math.max(left + 1, Math.round((region.x + region.width) / scale)));
  const bottom = Math.min(page.height, Math.max(top + 1, Math.round((region.y + region.height) / scale)));
  return { left, top, width: right - left, height: bottom - top };
}

/** The cut at the requested size: shrunk by block means when the source is a whole factor finer than the level. */
export async function scaled(source: Sharp, rect: Rect, factor: number, request: ImageRequest): Promise<Sharp> {
  let image = source;
  let { width, height } = rect;
  if (Number.isInteger(factor) && factor >= 2) {
    const { data, info } = await source.raw().toBuffer({ resolveWithObject: true });
    const shrunk = boxShrink({ data, width: info.width, height: info.height, channels: info.channels }, factor);
    ({ width, height } = shrunk);
    image = sharp(shrunk.data, { raw: { width, height, channels: shrunk.channels as 1 | 3 } });
  }
  if (width === request.width && height === request.height) return image;
  if (Number.isInteger(factor) && Math.abs(width - request.width) <= 1 && Math.abs(height - request.height) <= 1) {
    // A level libvips rounded down (an OME or TIFF pyramid's) is a pixel short of the level clients round up:
    // the last row or column is repeated, as for our own pyramid, rather than the whole tile stretched by a pixel.
    const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
    return sharp(data, { raw: info })
      .extract({ left: 0, top: 0, width: Math.min(width, request.width), height: Math.min(height, request.height) })
      .extend({
        right: Math.max(0, request.width - width),
        bottom: Math.max(0, request.height - height),
        extendWith: 'copy',
      });
  }
  return image.resize(request.width, request.height, { fit: 'fill', kernel: 'cubic' });
}

/**
 * Answers a IIIF request from the original while its pyramid builds. An original that is our pyramid's
 * shape already is served like one (stored tiles go out as they are); otherwise the tile is cut from the
 * most reduced page with enough detail, decoding only the stored tiles under it, and scaled to size.
 */
export async function renderFromOriginal(
  original: OpenPyramid,
  plan: OriginalPlan,
  request: ImageRequest,
  tiles: TileCache,
): Promise<RenderedImage> {
  if (plan.pyramidPages != null) return renderImage({ ...original, levels: plan.pyramidPages }, request, tiles);
  const level = chooseLevel(plan.levels, request);
  const { page, scale } = sourceFor(plan, level);
  const rect = pageRect(page, scale, request.region);
  if (rect.width * rect.height > MAX_REQUEST_DECODE) {
    throw new IiifRequestError(400, 'Region too large while the pyramid is being built');
  }
  const fromTiles =
    page.compression === JPEG_COMPRESSION
      ? await regionFromStoredTiles(page, rect, (index) =>
          tiles.get(`${original.key}#${page.offset}#${index}`, () => readOriginalTile(original, page, index)),
        )
      : null;
  const source =
    fromTiles?.image ??
    sharp(await original.localPath(), { ...pageInput(page), limitInputPixels: false, sequentialRead: false }).extract(
      rect,
    );
  const sized = await scaled(source, rect, 2 ** level / scale, request);
  const contentType = request.format === 'png' ? 'image/png' : 'image/jpeg';
  return { body: await finish(sized, request, JPEG_QUALITY).toBuffer(), contentType, passThrough: false };
}
