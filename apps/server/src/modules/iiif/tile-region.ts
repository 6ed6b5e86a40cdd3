import type { Sharp } from 'sharp';
import { sharp } from '../../imaging/sharp-setup.ts';
import {
  JPEG_COMPRESSION,
  restartLayout,
  stitchJpegBlocks,
  type RestartLayout,
  type RestartTile,
  type TiffPage,
} from '../../imaging/index.ts';
import { MAX_DECODE_PIXELS } from './original-plan.ts';

/**
 * Beyond this many stored tiles libvips reads the level itself: holding every tile (or decoded piece) costs more
 * memory. Smaller tiles may be more in number, up to the pixels the plan lets one tile decode (an NDPI level's
 * restart segments, which libvips cannot read, are thousands of 8-px rows).
 */
const MAX_TILES = 16;

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Piece extends Rect {
  index: number;
  /** Where the piece goes in the joined rectangle. */
  x: number;
  y: number;
}

/** The parts of `rect` each stored tile holds, in tile-local coordinates. */
export function piecesOf(page: Pick<TiffPage, 'width'>, tileWidth: number, tileHeight: number, rect: Rect): Piece[] {
  const across = Math.ceil(page.width / tileWidth);
  const pieces: Piece[] = [];
  const lastRow = Math.floor((rect.top + rect.height - 1) / tileHeight);
  const lastColumn = Math.floor((rect.left + rect.width - 1) / tileWidth);
  for (let row = Math.floor(rect.top / tileHeight); row <= lastRow; row++) {
    for (let column = Math.floor(rect.left / tileWidth); column <= lastColumn; column++) {
      const left = Math.max(rect.left, column * tileWidth);
      const top = Math.max(rect.top, row * tileHeight);
      const right = Math.min(rect.left + rect.width, (column + 1) * tileWidth);
      const bottom = Math.min(rect.top + rect.height, (row + 1) * tileHeight);
      pieces.push({
        index: row * across + column,
        left: left - column * tileWidth,
        top: top - row * tileHeight,
        width: right - left,
        height: bottom - top,
        x: left - rect.left,
        y: top - rect.top,
      });
    }
  }
  return pieces;
}

// Keyed by the tile's buffer: a tile served from the cache is the same object every time, so its segments
// are found once (~0.1 ms a dense tile), and forgotten with it.
const layouts = new WeakMap<Buffer, RestartLayout | null>();

function layoutOf(tile: Buffer): RestartLayout | null {
  let layout = layouts.get(tile);
  if (layout === undefined) {
    layout = restartLayout(tile);
    layouts.set(tile, layout);
  }
  return layout;
}

/**
 * The stored tiles under `pieces` as one JPEG of just the segments the rectangle covers, when every
 * tile has restart markers (jpeg-restart-crop.ts); null otherwise.
 */
function stitched(pieces: readonly Piece[], tiles: readonly Buffer[], rect: Rect): { jpeg: Buffer; rect: Rect } | null {
  const across = pieces.filter((piece) => piece.y === 0).length;
  const grid: RestartTile[][] = [];
  for (const [index, jpeg] of tiles.entries()) {
    const layout = layoutOf(jpeg);
    if (layout == null) return null;
    if (index % across === 0) grid.push([]);
    grid.at(-1)!.push({ jpeg, layout });
  }
  const { left, top } = pieces[0]!;
  const joined = stitchJpegBlocks(grid, { left, top, width: rect.width, height: rect.height });
  if (joined == null) return null;
  return { jpeg: joined.jpeg, rect: { left: joined.left, top: joined.top, width: rect.width, height: rect.height } };
}

/**
 * A rectangle of a JPEG-tiled level from its stored tiles. With restart markers in the tiles, the
 * segments the rectangle covers are joined into one JPEG and only those decoded: about one tile's
 * work for a cut across four. Otherwise each tile is decoded whole, all at the same time on the
 * thread pool (libvips reads a TIFF's tiles one after another), and the pieces joined. Null for
 * other pages, or for rectangles over more than MAX_TILES tiles.
 */
export async function regionFromStoredTiles(
  page: Pick<TiffPage, 'compression' | 'tileWidth' | 'tileHeight' | 'width'>,
  rect: Rect,
  storedTile: (index: number) => Promise<Buffer>,
): Promise<{ image: Sharp; tiles: number } | null> {
  if (page.compression !== JPEG_COMPRESSION || page.tileWidth == null || page.tileHeight == null) return null;
  const pieces = piecesOf(page, page.tileWidth, page.tileHeight, rect);
  if (pieces.length > Math.max(MAX_TILES, MAX_DECODE_PIXELS / (page.tileWidth * page.tileHeight))) return null;
  const tiles = await Promise.all(pieces.map((piece) => storedTile(piece.index)));
  const joined = stitched(pieces, tiles, rect);
  if (joined != null) return { image: sharp(joined.jpeg).extract(joined.rect), tiles: pieces.length };

  const cut = (piece: Piece, tile: Buffer) =>
    sharp(tile).extract({ left: piece.left, top: piece.top, width: piece.width, height: piece.height });
  if (pieces.length === 1) return { image: cut(pieces[0]!, tiles[0]!), tiles: 1 };
  const decoded = await Promise.all(
    pieces.map(async (piece, index) => ({
      piece,
      ...(await cut(piece, tiles[index]!).raw().toBuffer({ resolveWithObject: true })),
    })),
  );
  const channels = decoded[0]!.info.channels;
  if (decoded.some(({ info }) => info.channels !== channels)) return null;
  const joinedPixels = Buffer.allocUnsafe(rect.width * rect.height * channels);
  for (const { piece, data } of decoded) {
    const rowBytes = piece.width * channels;
    for (let row = 0; row < piece.height; row++) {
      data.copy(
        joinedPixels,
        ((piece.y + row) * rect.width + piece.x) * channels,
        row * rowBytes,
        (row + 1) * rowBytes,
      );
    }
  }
  return {
    image: sharp(joinedPixels, { raw: { width: rect.width, height: rect.height, channels } }),
    tiles: pieces.length,
  };
}
