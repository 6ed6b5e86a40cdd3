import { sharp } from '../../imaging/sharp-setup.ts';

/** How a slide is cut into the square cells a model reads. */
export interface CellGrid {
  /** Pyramid level the cells are read from (downsample 2^level). */
  level: number;
  /** Side of a cell in that level's pixels; resized to the model's input size when different. */
  cellAtLevel: number;
  /** Side of a cell in full-resolution pixels: the result's cellSize. */
  cellSize: number;
  columns: number;
  rows: number;
}

/** Magnification of a full-resolution pixel: 10 µm ÷ µm per pixel (×20 at 0.5 µm), else what the scanner said, else ×20. */
export function slideMagnification(micronsPerPixel: number | undefined, stated: number | null): number {
  if (micronsPerPixel != null && micronsPerPixel > 0) return 10 / micronsPerPixel;
  return stated != null && stated > 0 ? stated : 20;
}

/**
 * The grid of `inputSize` cells at the model's magnification, read from the coarsest level that is
 * still at least as sharp; a slide scanned below the model's magnification is read at full resolution
 * and enlarged, so a cell always covers the tissue the model was trained on.
 */
export function planGrid(
  levels: readonly { width: number; height: number }[],
  slide: number,
  model: { inputSize: number; magnification: number },
): CellGrid {
  const downsample = slide / model.magnification;
  let level = 0;
  while (level + 1 < levels.length && 2 ** (level + 1) <= downsample + 1e-9) level++;
  const cellAtLevel = Math.max(1, Math.round((model.inputSize * downsample) / 2 ** level));
  const { width, height } = levels[level]!;
  return {
    level,
    cellAtLevel,
    cellSize: cellAtLevel * 2 ** level,
    columns: Math.ceil(width / cellAtLevel),
    rows: Math.ceil(height / cellAtLevel),
  };
}

const WHITE = { r: 255, g: 255, b: 255 };
/** Pixels of one read: bounds the memory of a band (and its float copy) on the widest slides. */
const BAND_PIXELS = 16_000_000;
const MAX_ROWS_PER_READ = 8;

/** How many rows of cells one read takes: each read has a fixed cost, so as many as fit a band. */
export function rowsPerRead(grid: CellGrid): number {
  const rowPixels = grid.columns * grid.cellAtLevel * grid.cellAtLevel;
  return Math.max(1, Math.min(MAX_ROWS_PER_READ, Math.floor(BAND_PIXELS / rowPixels)));
}

/**
 * Rows `first`… of cells (at most `count`) as the model's input, one float32 N×3×S×S tensor per row,
 * RGB 0–255, N = grid.columns: one read of the pyramid level for all of them. Cells past the slide's
 * edge are filled with white (glass), which tissue detection leaves out.
 */
export async function readCellRows(
  source: { path: string; page: number; width: number; height: number },
  grid: CellGrid,
  first: number,
  count: number,
  inputSize: number,
): Promise<Float32Array[]> {
  const rows = Math.min(count, grid.rows - first);
  const top = first * grid.cellAtLevel;
  const bandWidth = grid.columns * grid.cellAtLevel;
  const bandHeight = rows * grid.cellAtLevel;
  const height = Math.min(bandHeight, source.height - top);
  let band = sharp(source.path, { page: source.page, limitInputPixels: false, sequentialRead: false })
    .extract({ left: 0, top, width: source.width, height })
    .removeAlpha();
  if (source.width < bandWidth || height < bandHeight) {
    band = sharp(
      await band
        .extend({ right: bandWidth - source.width, bottom: bandHeight - height, background: WHITE })
        .raw()
        .toBuffer(),
      { raw: { width: bandWidth, height: bandHeight, channels: 3 } },
    );
  }
  if (grid.cellAtLevel !== inputSize) band = band.resize(grid.columns * inputSize, rows * inputSize, { fit: 'fill' });
  const pixels = await band.raw().toBuffer();
  const rowBytes = grid.columns * inputSize * inputSize * 3;
  return Array.from({ length: rows }, (_, row) =>
    toTensor(pixels.subarray(row * rowBytes, (row + 1) * rowBytes), grid.columns, inputSize),
  );
}

/** Interleaved RGB of `count` cells side by side (a band S high) → planar N×3×S×S floats. */
export function toTensor(pixels: Uint8Array, count: number, size: number): Float32Array {
  const tensor = new Float32Array(count * 3 * size * size);
  const rowStride = count * size * 3;
  const plane = size * size;
  for (let cell = 0; cell < count; cell++) {
    const base = cell * 3 * plane;
    for (let y = 0; y < size; y++) {
      let from = y * rowStride + cell * size * 3;
      const at = y * size;
      for (let x = 0; x < size; x++, from += 3) {
        tensor[base + at + x] = pixels[from]!;
        tensor[base + plane + at + x] = pixels[from + 1]!;
        tensor[base + 2 * plane + at + x] = pixels[from + 2]!;
      }
    }
  }
  return tensor;
}
