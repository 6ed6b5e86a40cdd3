import sharp, { type Sharp } from 'sharp';
import { cropJpegBlocks, JPEG_COMPRESSION, restartLayout, type TiffPage } from '../../imaging/index.ts';

/** Beyond this many stored tiles libvips reads the level itself: holding every decoded piece costs more memory. */
const MAX_TILES = 16;

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

interface Piece extends Rect {
  index: number;
  /** Where the piece goes in the joined rectangle. */
  x: number;
  y: number;
}

/** The parts of `rect` each stored tile holds, in tile-local coordinates. */
function piecesOf(page: TiffPage, tileWidth: number, tileHeight: number, rect: Rect): Piece[] {
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

/**
 * A rectangle of a JPEG-tiled level from its stored tiles. libvips reads a TIFF's tiles one after
 * another, each whole; here each tile's part is decoded alone when the tile has restart markers,
 * all at the same time on the thread pool, and the pieces joined. Null for other pages, or for
 * rectangles over more than MAX_TILES tiles.
 */
export async function regionFromStoredTiles(
  page: TiffPage,
  rect: Rect,
  storedTile: (index: number) => Promise<Buffer>,
): Promise<{ image: Sharp; tiles: number } | null> {
  if (page.compression !== JPEG_COMPRESSION || page.tileWidth == null || page.tileHeight == null) return null;
  const pieces = piecesOf(page, page.tileWidth, page.tileHeight, rect);
  if (pieces.length > MAX_TILES) return null;
  const cut = async ({ index, left, top, width, height }: Piece) => {
    const tile = await storedTile(index);
    const layout = restartLayout(tile);
    if (layout == null) return sharp(tile).extract({ left, top, width, height });
    const blocks = cropJpegBlocks(tile, layout, { left, top, width, height });
    return sharp(blocks.jpeg).extract({ left: blocks.left, top: blocks.top, width, height });
  };
  if (pieces.length === 1) return { image: await cut(pieces[0]!), tiles: 1 };

  const decoded = await Promise.all(
    pieces.map(async (piece) => ({ piece, ...(await (await cut(piece)).raw().toBuffer({ resolveWithObject: true })) })),
  );
  const channels = decoded[0]!.info.channels;
  if (decoded.some(({ info }) => info.channels !== channels)) return null;
  const joined = Buffer.allocUnsafe(rect.width * rect.height * channels);
  for (const { piece, data } of decoded) {
    const rowBytes = piece.width * channels;
    for (let row = 0; row < piece.height; row++) {
      data.copy(joined, ((piece.y + row) * rect.width + piece.x) * channels, row * rowBytes, (row + 1) * rowBytes);
    }
  }
  return { image: sharp(joined, { raw: { width: rect.width, height: rect.height, channels } }), tiles: pieces.length };
}
