import type { InferenceSession } from 'onnxruntime-node';
import { onnxRuntime } from '../../on-first-use.ts';
import { readCellRows, rowsPerRead, type CellGrid } from './slide-cells.ts';

/** A cell is tissue, and judged by the model, when at least this share of it is tissue. */
export const MIN_TISSUE_SHARE = 0.25;

export interface SlideLevel {
  path: string;
  page: number;
  width: number;
  height: number;
}

export interface SlideInference {
  source: SlideLevel;
  grid: CellGrid;
  inputSize: number;
  batchSize: number;
  tissue: InferenceSession;
  classifier: InferenceSession;
  /** Reads one row of cells as the model's input; from the slide's pyramid unless given (the benchmark's floor). */
  readRow?: (row: number) => Promise<Float32Array>;
  /**
   * For a model with object output: given each tissue cell's probability maps (labels × inputSize²), emits its
   * objects and answers the highest probability of each label, which the grid records.
   */
  objects?: (column: number, row: number, maps: Float32Array) => number[];
  /** Called after each row of cells with the cells done so far; may stop the run by throwing. */
  onProgress(done: number, total: number): Promise<void>;
}

export interface InferenceOutcome {
  /** 'x:y' → label id ('1' for the first label) → probability in percent. */
  cells: Record<string, Record<string, number>>;
  considered: number;
  readMs: number;
  inferMs: number;
}

/** Runs `session` on `count` cells of `tensor` in batches; the first output's rows, flattened, and its labels. */
export async function runBatches(
  session: InferenceSession,
  tensor: Float32Array,
  count: number,
  size: number,
  batchSize: number,
): Promise<{ values: Float32Array; columns: number }> {
  const { Tensor } = onnxRuntime();
  const cell = 3 * size * size;
  const parts: Float32Array[] = [];
  let columns = 1;
  for (let start = 0; start < count; start += batchSize) {
    const n = Math.min(batchSize, count - start);
    const input = new Tensor('float32', tensor.subarray(start * cell, (start + n) * cell), [n, 3, size, size]);
    const outputs = await session.run({ [session.inputNames[0]!]: input });
    const output = outputs[session.outputNames[0]!]!;
    columns = output.dims.length > 1 ? Number(output.dims[1]) : 1;
    parts.push(output.data as Float32Array);
  }
  // A model with object output gives a map per label and cell, not one value per label.
  const values = new Float32Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    values.set(part, offset);
    offset += part.length;
  }
  return { values, columns };
}

/** The cells of `indices`, copied side by side into one tensor. */
function gather(tensor: Float32Array, indices: number[], size: number): Float32Array {
  const cell = 3 * size * size;
  const gathered = new Float32Array(indices.length * cell);
  indices.forEach((index, at) => gathered.set(tensor.subarray(index * cell, (index + 1) * cell), at * cell));
  return gathered;
}

/**
 * Tissue detection, then the model, over every row of cells of the slide. Rows are read from the
 * pyramid several at a time, the next ones while the model judges these, so reading and inference overlap.
 */
export async function inferSlide(run: SlideInference): Promise<InferenceOutcome> {
  const { grid, inputSize, batchSize } = run;
  const total = grid.columns * grid.rows;
  const cells: InferenceOutcome['cells'] = {};
  let considered = 0;
  let readMs = 0;
  let inferMs = 0;
  const perRead = run.readRow ? 1 : rowsPerRead(grid);
  const read = (chunk: number): Promise<Float32Array[]> => {
    const started = performance.now();
    const reading = run.readRow
      ? run.readRow(chunk).then((tensor) => [tensor])
      : readCellRows(run.source, grid, chunk * perRead, perRead, inputSize);
    return reading.then((tensors) => {
      readMs += performance.now() - started;
      return tensors;
    });
  };
  const chunks = Math.ceil(grid.rows / perRead);
  let next = chunks > 0 ? read(0) : null;
  let rows: Float32Array[] = [];
  try {
    for (let row = 0; row < grid.rows; row++) {
      if (row % perRead === 0) {
        rows = await next!;
        const chunk = row / perRead + 1;
        next = chunk < chunks ? read(chunk) : null;
      }
      const tensor = rows[row % perRead]!;
      const started = performance.now();
      const tissue = await runBatches(run.tissue, tensor, grid.columns, inputSize, batchSize);
      const tissueCells: number[] = [];
      for (let column = 0; column < grid.columns; column++) {
        if (tissue.values[column * tissue.columns]! >= MIN_TISSUE_SHARE) tissueCells.push(column);
      }
      if (tissueCells.length > 0) {
        const judged = await runBatches(
          run.classifier,
          gather(tensor, tissueCells, inputSize),
          tissueCells.length,
          inputSize,
          batchSize,
        );
        const perCell = judged.values.length / tissueCells.length;
        tissueCells.forEach((column, at) => {
          const probabilities = run.objects
            ? run.objects(column, row, judged.values.subarray(at * perCell, (at + 1) * perCell))
            : Array.from(judged.values.subarray(at * perCell, at * perCell + judged.columns));
          const labels: Record<string, number> = {};
          probabilities.forEach((value, label) => (labels[String(label + 1)] = Math.round(value * 1000) / 10));
          cells[`${column}:${row}`] = labels;
        });
        considered += tissueCells.length;
      }
      inferMs += performance.now() - started;
      await run.onProgress((row + 1) * grid.columns, total);
    }
  } finally {
    // A run stopped midway leaves the row read ahead unwanted: its failure, if any, is nobody's concern.
    void next?.catch(() => undefined);
  }
  return { cells, considered, readMs, inferMs };
}
