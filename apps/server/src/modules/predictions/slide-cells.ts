import sharp from 'sharp';

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
 * still at least as sharp (a slide scanned below the model's magnification is read at full resolution).
 */
export function planGrid(
  levels: readonly { width: number; height: number }[],
  slide: number,
  model: { inputSize: number; magnification: number },
): CellGrid {
  const downsample = Math.max(1, slide / model.magnification);
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

/**
 * One row of cells as the model's input: float32 N×3×S×S, RGB 0–255, N = grid.columns. Cells past the
 * slide's edge are filled with white (glass), which tissue detection leaves out.
 */
export async function readCellRow(
  source: { path: string; page: number; width: number; height: number },
  grid: CellGrid,
  row: number,
  inputSize: number,
): Promise<Float32Array> {
  const top = row * grid.cellAtLevel;
  const bandWidth = grid.columns * grid.cellAtLevel;
  const height = Math.min(grid.cellAtLevel, source.height - top);
  let band = sharp(source.path, { page: source.page, limitInputPixels: false, sequentialRead: false })
    .extract({ left: 0, top, width: source.width, height })
    .removeAlpha();
  if (source.width < bandWidth || height < grid.cellAtLevel) {
    band = sharp(
      await band
        .extend({ right: bandWidth - source.width, bottom: grid.cellAtLevel - height, background: WHITE })
        .raw()
        .toBuffer(),
      { raw: { width: bandWidth, height: grid.cellAtLevel, channels: 3 } },
    );
  }
  if (grid.cellAtLevel !== inputSize) band = band.resize(grid.columns * inputSize, inputSize, { fit: 'fill' });
  const pixels = await band.raw().toBuffer();
  return toTensor(pixels, grid.columns, inputSize);
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
