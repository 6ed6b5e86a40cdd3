import { remainingMs, type ConvertContext } from './context.ts';
import { jpegShownAsMeant, type InstanceFiles } from './dicom-convert-frames.ts';
import type { DicomLevel } from './dicom-read-slide.ts';
import type { BaseTiles } from './google-tiles.ts';
import type { JpegCoding } from './jpeg-frame.ts';
import { TILE_SIZE } from './pyramid.ts';
import type { TileColours } from './tiled-tiff-writer.ts';

/** Sampling factors a TIFF's YCbCrSubSampling can declare (libtiff refuses others, and a vertical above the horizontal). */
const TIFF_SAMPLING = new Set(['1x1', '2x1', '2x2', '4x1', '4x2', '4x4']);
/** Our own tiles' coding: dzsave's tiles and these frames can share a page. */
const OURS = 'ycbcr:1x1';

/** The coding a copied frame gives its TIFF page, or null when no page can declare it. */
function tileColours(coding: JpegCoding | null): TileColours | null {
  if (coding?.components !== 3 || coding.width !== TILE_SIZE || coding.height !== TILE_SIZE) return null;
  const sampling = coding.subsampling;
  if (sampling == null || !TIFF_SAMPLING.has(sampling.join('x'))) return null;
  if (coding.colour === 'rgb' && sampling.join('x') !== '1x1') return null;
  return { colour: coding.colour === 'rgb' ? 'rgb' : 'ycbcr', subsampling: sampling };
}

const keyOf = (colours: TileColours) => `${colours.colour}:${colours.subsampling.join('x')}`;

/**
 * Our pyramid's full-resolution tiles taken from the slide's own frames, byte for byte, where its largest level
 * is of 512-px frames: our tile size, so frame (column, row) is our tile (column, row), and the scanner's JPEG is
 * then served at level 0 before the conversion (original-dicom.ts) and after it alike. Which frames are copied:
 * - all of them, edge frames too, when every tile has a JPEG baseline frame of 512×512 px whose colours decoders
 *   show as meant (jpegShownAsMeant) and all are coded alike (RGB, or YCbCr with one subsampling): the level's
 *   TIFF page is declared as they are coded, and libtiff (libvips reading a large region, the prediction job,
 *   a one-tile slide's thumbnail) reads them as it should;
 * - otherwise only such frames coded as our own tiles are (YCbCr without subsampling), beside dzsave's tiles
 *   for the rest, as one page holds one coding and libtiff refuses a tile sampled otherwise than its page says
 *   and reads an RGB tile of a YCbCr page as YCbCr. So a TILED_SPARSE level's blank glass, or a progressive,
 *   grey or differently coded frame among them, leaves Adobe-RGB and subsampled frames decoded.
 * None for frames of other sizes (240, 256: the tilings differ, so every tile is cut afresh), JPEG 2000 and
 * uncompressed frames (no JPEG to keep), or grey frames (our pyramid is colour throughout). Each frame is still
 * decoded once, into the intermediate level from which dzsave makes the smaller levels.
 */
export async function baseFromFrames(
  context: ConvertContext,
  files: InstanceFiles,
  level: DicomLevel,
): Promise<BaseTiles | undefined> {
  if (level.tileWidth !== TILE_SIZE || level.tileHeight !== TILE_SIZE) return undefined;
  if (level.instances.some((instance) => instance.coding !== 'jpeg')) return undefined;
  const colours = new Map<number, TileColours>();
  for (const [index, placed] of level.tiles) {
    if (index % 256 === 0) remainingMs(context);
    const coded = tileColours(jpegShownAsMeant(placed.instance, await files.readHead(placed.instance, placed.frame)));
    if (coded != null) colours.set(index, coded);
  }
  const kinds = new Set([...colours.values()].map(keyOf));
  const everyTile = colours.size === level.tilesAcross * level.tilesDown && kinds.size === 1;
  const copied = new Set(
    [...colours].filter(([, coded]) => everyTile || keyOf(coded) === OURS).map(([index]) => index),
  );
  if (copied.size === 0) return undefined;
  return {
    ...(everyTile ? { colours: colours.values().next().value! } : {}),
    tile: async (index) => {
      const placed = copied.has(index) ? level.tiles.get(index) : undefined;
      return placed == null ? null : files.read(placed.instance, placed.frame);
    },
  };
}
