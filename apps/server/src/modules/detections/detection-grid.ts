import { DETECTION_TILE_SIZE } from '@pathology/contract';

/** Grid cells (image pixels) whose counts are written at import, fine to coarse. */
export const CELL_SIZES = [256, 1024, 2048] as const;

/** Cells whose objects' centres are written at import, for the exact test where a drawing's outline crosses one. */
export const CENTRE_CELL_SIZE = CELL_SIZES[0];

/** Seen at this scale or closer, a view shows the objects themselves; further out, counts per cell. */
export const OBJECT_SCALE = 1 / 8;

/** Seen at this scale or closer, tiles draw the objects' outlines; further out an outline is a few pixels anyway. */
export const OUTLINE_SCALE = 1 / 2;

/**
 * Below full resolution a tile paints at most about this many outlines (by the grid's estimate); where it holds more,
 * each object is a speck of some 16 pixels or less and is drawn as an edged mark. Painting 2,000 nuclei' outlines
 * takes ~35 ms with their PNG, and a view asks for 6 such tiles at once: under load its last tile waited 0.5–0.7 s.
 */
export const MAX_OUTLINES_BELOW_FULL = 1_000;

/** Whether a tile at `scale` holding about `estimate` objects draws their outlines (else marks or density). */
export const drawsOutlines = (scale: number, estimate: number): boolean =>
  scale >= 1 || (scale >= OUTLINE_SCALE && estimate <= MAX_OUTLINES_BELOW_FULL);

/** At most this many objects are sent or drawn for one view; beyond it the counts are. */
export const MAX_VIEW_OBJECTS = 20_000;

/** A cell is drawn at least this many screen pixels wide, so density stays a picture and not noise. */
const MIN_CELL_SCREEN_PIXELS = 4;

/**
 * A viewport's counts come in cells at least this many screen pixels wide: a whole slide in 4-pixel cells is tens of
 * thousands of rows of JSON, too many to answer quickly, where a tile draws them into a picture on the server.
 */
export const VIEWPORT_CELL_PIXELS = 16;

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The stored cell size for a view at `scale` (screen pixels per image pixel): the finest at least `minPixels` (4)
 * screen pixels wide, else the coarsest.
 */
export function cellSizeFor(scale: number, minPixels = MIN_CELL_SCREEN_PIXELS): number {
  return CELL_SIZES.find((size) => size * scale >= minPixels) ?? CELL_SIZES.at(-1)!;
}

/** The highest tile level of a layer: one image pixel per tile pixel (OpenSeadragon's numbering, 0 = 1×1 pixel). */
export function maxTileLevel(size: { width: number; height: number }): number {
  return Math.ceil(Math.log2(Math.max(size.width, size.height, 1)));
}

/**
 * The image region one tile covers, its scale and its pixel size (edge tiles are smaller); undefined for a tile
 * outside the image or a level that does not exist.
 */
export function tileRegion(
  size: { width: number; height: number },
  level: number,
  column: number,
  row: number,
): { region: Region; scale: number; pixelWidth: number; pixelHeight: number } | undefined {
  const top = maxTileLevel(size);
  if (level < 0 || level > top) return undefined;
  const scale = 2 ** (level - top);
  const span = DETECTION_TILE_SIZE / scale;
  const [x, y] = [column * span, row * span];
  if (column < 0 || row < 0 || x >= size.width || y >= size.height) return undefined;
  const width = Math.min(span, size.width - x);
  const height = Math.min(span, size.height - y);
  return {
    region: { x, y, width, height },
    scale,
    pixelWidth: Math.max(1, Math.ceil(width * scale)),
    pixelHeight: Math.max(1, Math.ceil(height * scale)),
  };
}

// A type, not an interface: rows of db.execute must be records.
export type CellCount = {
  column: number;
  row: number;
  classIndex: number;
  count: number;
};

/** `#rrggbb` as [r, g, b]. */
export const channels = (color: string): [number, number, number] => [
  Number.parseInt(color.slice(1, 3), 16),
  Number.parseInt(color.slice(3, 5), 16),
  Number.parseInt(color.slice(5, 7), 16),
];

/**
 * A density picture of cell counts, one RGBA pixel per cell of the region: the colour is the mix of the visible
 * classes weighted by their counts, the opacity grows with the count up to `opacity` at `full` objects per cell.
 */
export function densityPixels(
  cells: readonly CellCount[],
  grid: { column: number; row: number; columns: number; rows: number },
  colors: ReadonlyMap<number, string>,
  opacity: number,
  full: number,
): Uint8Array {
  const sums = new Float64Array(grid.columns * grid.rows * 4);
  for (const cell of cells) {
    const color = colors.get(cell.classIndex);
    const [column, row] = [cell.column - grid.column, cell.row - grid.row];
    if (color === undefined || column < 0 || row < 0 || column >= grid.columns || row >= grid.rows) continue;
    const at = (row * grid.columns + column) * 4;
    const [r, g, b] = channels(color);
    sums[at] = sums[at]! + r * cell.count;
    sums[at + 1] = sums[at + 1]! + g * cell.count;
    sums[at + 2] = sums[at + 2]! + b * cell.count;
    sums[at + 3] = sums[at + 3]! + cell.count;
  }
  const pixels = new Uint8Array(sums.length);
  for (let at = 0; at < sums.length; at += 4) {
    const count = sums[at + 3]!;
    if (count === 0) continue;
    pixels[at] = Math.round(sums[at]! / count);
    pixels[at + 1] = Math.round(sums[at + 1]! / count);
    pixels[at + 2] = Math.round(sums[at + 2]! / count);
    pixels[at + 3] = Math.round(255 * opacity * Math.min(1, 0.25 + (0.75 * count) / full));
  }
  return pixels;
}
