import type { Sharp } from 'sharp';
import { sharp } from '../../imaging/sharp-setup.ts';
import { JPEG_COMPRESSION } from '../../imaging/index.ts';
import type { ConvertContext } from '../../imaging/context.ts';
import { frameImage, jpegShownAsMeant } from '../../imaging/dicom-convert-frames.ts';
import type { OpenDicomSlide } from '../../imaging/dicom-original.ts';
import type { DicomLevel, DicomSlide } from '../../imaging/dicom-read-slide.ts';
import { TILE_SIZE } from '../../imaging/pyramid.ts';
import { IiifRequestError, type ImageRequest } from './iiif-params.ts';
import {
  decodeCost,
  MAX_DECODE_PIXELS,
  pyramidLevels,
  sourceFor,
  withinDecodeCost,
  type LevelSize,
} from './original-plan.ts';
import { MAX_REQUEST_DECODE, pageRect, scaled } from './original-render.ts';
import type { TileCache } from './tile-cache.ts';
import { piecesOf, regionFromStoredTiles, type Rect } from './tile-region.ts';
import { chooseLevel, finish, JPEG_QUALITY, type RenderedImage } from './tile-render.ts';

/** A level of the slide that tiles are cut from, and how many full-resolution pixels one of its pixels spans. */
interface DicomSource {
  page: DicomLevel;
  scale: number;
}

/** How a DICOM slide is served before its pyramid exists: the pyramid's levels, cut from the slide's own. */
export interface DicomPlan {
  levels: LevelSize[];
  /** Full resolution first, scale ascending. */
  sources: DicomSource[];
}

/** A DICOM slide opened for serving: `key` names its frames in the tile cache, `workDir` takes JPEG 2000 frames. */
export interface OpenDicomOriginal {
  key: string;
  dicom: OpenDicomSlide;
  workDir: string;
}

const WHITE = { r: 255, g: 255, b: 255 };
/** Frames decoded at once for one request: a JPEG 2000 frame is one vips process. */
const PARALLEL_FRAMES = 4;
/** Time one request may take decoding frames through vips. */
const DECODE_MS = 30_000;

/** Frames the conversion's frame reader decodes (dicom-convert-frames.ts): others are refused there too. */
function readable(level: DicomLevel): boolean {
  return level.instances.every(
    (instance) =>
      instance.coding !== 'native' ||
      (instance.bitsAllocated === 8 &&
        ['RGB', 'MONOCHROME2'].includes(instance.photometric) &&
        (instance.samplesPerPixel === 1 || (instance.samplesPerPixel === 3 && instance.planarConfiguration !== 1))),
  );
}

/** The level as a reduced copy of `base`, with its scale snapped to a power of two when its size is one within a pixel. */
function asSource(base: DicomLevel, level: DicomLevel): DicomSource | null {
  const scale = base.width / level.width;
  if (Math.abs(base.height / scale - level.height) > Math.max(2, level.height * 0.01)) return null;
  const power = 2 ** Math.round(Math.log2(scale));
  const halving = Math.abs(base.width / power - level.width) <= 1 && Math.abs(base.height / power - level.height) <= 1;
  return { page: level, scale: halving ? power : scale };
}

/**
 * The plan for a DICOM slide: our pyramid's levels (those its conversion makes from the largest level),
 * each cut from a VOLUME level with its detail (dicomSourceFor). Null, and the slide converted first, for
 * frames its conversion refuses too, or a slide whose levels are too far apart to cut tiles from quickly.
 */
export function planDicom(slide: DicomSlide): DicomPlan | null {
  const base = slide.levels[0];
  if (base == null || base.tileWidth !== base.tileHeight || !readable(base)) return null;
  const sources = slide.levels
    .filter(readable)
    .map((level) => asSource(base, level))
    .filter((source): source is DicomSource => source != null)
    .sort((a, b) => a.scale - b.scale)
    .filter((source, index, all) => index === 0 || source.scale !== all[index - 1]!.scale);
  const plan = { levels: pyramidLevels(base.width, base.height), sources };
  return withinDecodeCost(plan) ? plan : null;
}

/**
 * The level a tile is cut from: the largest, wherever it costs no more than MAX_DECODE_PIXELS a tile, as
 * the conversion makes every level of the pyramid from it alone and the hand-over is then seamless; else
 * as for other originals. A DICOM's reduced levels are a generation further from the scan (the
 * Dicomizer's JPEG 2000 level 1 is 7.7/255 off its input), too far for 3/255 at the hand-over.
 */
function dicomSourceFor(plan: DicomPlan, level: number): DicomSource {
  const [base] = plan.sources;
  return base != null && decodeCost(2 ** level, base) <= MAX_DECODE_PIXELS ? base : sourceFor(plan, level);
}

function frameBytes(opened: OpenDicomOriginal, level: DicomLevel, index: number, tiles: TileCache): Promise<Buffer> {
  const placed = level.tiles.get(index);
  if (placed == null) throw new Error(`frame ${index} is missing from ${opened.key}`);
  return tiles.get(`${opened.key}#dicom#${level.width}x${level.height}#${index}`, () =>
    opened.dicom.files.read(placed.instance, placed.frame),
  );
}

const blanks = new Map<string, Promise<Buffer>>();

/** Blank glass, where TILED_SPARSE leaves a frame out: white, as the conversion paints it. */
function blankJpeg(level: DicomLevel): Promise<Buffer> {
  const key = `${level.tileWidth}x${level.tileHeight}`;
  let blank = blanks.get(key);
  if (blank == null) {
    blank = sharp({ create: { width: level.tileWidth, height: level.tileHeight, channels: 3, background: WHITE } })
      .jpeg()
      .toBuffer();
    blanks.set(key, blank);
  }
  return blank;
}

/**
 * The frame itself, when the request is exactly one of our tiles and that tile is exactly one JPEG baseline
 * frame of the level it is cut from (512-px frames on our grid: every inner tile of level 0, and of a reduced
 * level the scanner wrote where level 0 costs too much): it goes out as the scanner coded it, neither decoded
 * nor coded a second time, so it loses nothing more and costs one read, as DICOMweb gives that frame. RGB frames
 * qualify as YCbCr ones do where the JPEG itself makes decoders show their colours (jpegShownAsMeant); a frame
 * whose colours a decoder would have to be told, or that is not baseline, is decoded as others are. Null
 * otherwise. The conversion copies the same frames into its level 0 (dicom-convert-base.ts), so the hand-over
 * changes none of these tiles.
 */
async function passThrough(
  opened: OpenDicomOriginal,
  source: DicomSource,
  level: number,
  request: ImageRequest,
  tiles: TileCache,
): Promise<Buffer | null> {
  const { page } = source;
  const span = TILE_SIZE * 2 ** level;
  const { x, y, width, height } = request.region;
  if (request.format !== 'jpg' || request.quality !== 'default' || request.rotation !== 0 || request.mirror)
    return null;
  if (source.scale !== 2 ** level || page.tileWidth !== TILE_SIZE || page.tileHeight !== TILE_SIZE) return null;
  if (request.width !== TILE_SIZE || request.height !== TILE_SIZE || width !== span || height !== span) return null;
  if (x % span !== 0 || y % span !== 0) return null;
  const column = x / span;
  const row = y / span;
  // A frame on the level's edge holds padding beyond it; the tile there is smaller.
  if ((column + 1) * TILE_SIZE > page.width || (row + 1) * TILE_SIZE > page.height) return null;
  const index = row * page.tilesAcross + column;
  const placed = page.tiles.get(index);
  if (placed == null || placed.instance.coding !== 'jpeg') return null;
  const frame = await frameBytes(opened, page, index, tiles);
  const coding = jpegShownAsMeant(placed.instance, frame);
  return coding?.width === TILE_SIZE && coding.height === TILE_SIZE ? frame : null;
}

/** A rectangle of a level from frames of any coding, each decoded as the conversion decodes it, a few at a time. */
async function decodedRegion(opened: OpenDicomOriginal, level: DicomLevel, rect: Rect): Promise<Sharp> {
  const context: ConvertContext = {
    sourcePath: '',
    workDir: opened.workDir,
    deadline: Date.now() + DECODE_MS,
    maxPixels: Number.MAX_SAFE_INTEGER,
    niceness: 0,
  };
  const joined = Buffer.alloc(rect.width * rect.height * 3, 255);
  const pieces = piecesOf(level, level.tileWidth, level.tileHeight, rect);
  for (let first = 0; first < pieces.length; first += PARALLEL_FRAMES) {
    await Promise.all(
      pieces.slice(first, first + PARALLEL_FRAMES).map(async (piece) => {
        const placed = level.tiles.get(piece.index);
        if (placed == null) return;
        const image = await frameImage(context, opened.dicom.files, placed.instance, placed.frame);
        const data = await image
          .extract({ left: piece.left, top: piece.top, width: piece.width, height: piece.height })
          .flatten({ background: WHITE })
          .toColourspace('srgb')
          .raw()
          .toBuffer();
        const rowBytes = piece.width * 3;
        for (let row = 0; row < piece.height; row++) {
          data.copy(joined, ((piece.y + row) * rect.width + piece.x) * 3, row * rowBytes, (row + 1) * rowBytes);
        }
      }),
    );
  }
  return sharp(joined, { raw: { width: rect.width, height: rect.height, channels: 3 } });
}

async function region(opened: OpenDicomOriginal, level: DicomLevel, rect: Rect, tiles: TileCache): Promise<Sharp> {
  if (level.instances.every((instance) => instance.coding === 'jpeg')) {
    const page = {
      compression: JPEG_COMPRESSION,
      tileWidth: level.tileWidth,
      tileHeight: level.tileHeight,
      width: level.width,
    };
    const fromFrames = await regionFromStoredTiles(page, rect, (index) =>
      level.tiles.has(index) ? frameBytes(opened, level, index, tiles) : blankJpeg(level),
    );
    if (fromFrames != null) return fromFrames.image;
  }
  return decodedRegion(opened, level, rect);
}

/**
 * Answers a IIIF request from a DICOM slide's frames while its pyramid builds: a tile that is one JPEG
 * baseline frame goes out as it is; otherwise the tile is cut from the level dicomSourceFor picks,
 * decoding only the frames under it, and scaled to size.
 */
export async function renderFromDicom(
  opened: OpenDicomOriginal,
  plan: DicomPlan,
  request: ImageRequest,
  tiles: TileCache,
): Promise<RenderedImage> {
  const level = chooseLevel(plan.levels, request);
  const source = dicomSourceFor(plan, level);
  const frame = await passThrough(opened, source, level, request, tiles);
  if (frame != null) return { body: frame, contentType: 'image/jpeg', passThrough: true };
  const rect = pageRect(source.page, source.scale, request.region);
  if (rect.width * rect.height > MAX_REQUEST_DECODE) {
    throw new IiifRequestError(400, 'Region too large while the pyramid is being built');
  }
  const image = await region(opened, source.page, rect, tiles);
  const sized = await scaled(image, rect, 2 ** level / source.scale, request);
  const contentType = request.format === 'png' ? 'image/png' : 'image/jpeg';
  return { body: await finish(sized, request, JPEG_QUALITY).toBuffer(), contentType, passThrough: false };
}
