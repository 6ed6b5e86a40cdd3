// First: it records the environment before the imaging modules load sharp (see the module).
import { restoreVipsHome } from './support/child-env.ts';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { convertImage } from '../apps/server/src/imaging/index.ts';
import { createPyramidCache } from '../apps/server/src/modules/iiif/pyramid-cache.ts';
import { createModelRegistry, writeBuiltinModels } from '../apps/server/src/modules/predictions/model-registry.ts';
import { planGrid, readCellRows, slideMagnification } from '../apps/server/src/modules/predictions/slide-cells.ts';
import { inferSlide, type SlideInference } from '../apps/server/src/modules/predictions/slide-inference.ts';
import { FilesystemBlobStore } from '../apps/server/src/storage/filesystem-blob-store.ts';
import type { InstalledModel } from '../apps/server/src/modules/predictions/model-manifest.ts';
import { classifierFlops, installPatchClassifier } from './support/patch-classifier.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { deriveLargeSlide } from './support/derived-slides.ts';
import { summarize } from './support/stats.ts';
import { formatTable } from './support/table.ts';

export const description =
  'The predict job (tissue detection, then the built-in nuclear density or an operator-style patch classifier) over a converted real slide and a 4×4 replica, next to ONNX Runtime on pre-loaded tensors of the same cells (--runs N)';

const GOAL_RATIO = 0.8;
const SLIDE = 'CMU-1-Small-Region.svs';
/** A whole slide has hundreds of rows of cells: the real crop replicated, so reading and inference reach their steady pace. */
const REPLICATE = 4;

/** The built-in model at its own ×10, and read at ×20 and ×40 (4× and 16× the cells) for steadier figures. */
const MAGNIFICATIONS = [10, 20, 40];
/** The catalogue entry the operator-style classifier is installed for. */
const PATCH_MODEL = 'colon-biopsy';

/** Cells a second of the job and of ONNX Runtime on the same cells pre-loaded, alternating runs (medians). */
async function measure(
  base: SlideInference,
  runs: number,
): Promise<{ jobRate: number; floorRate: number; readShare: number; inferenceSlowdown: number; considered: number }> {
  const preloaded = await readCellRows(base.source, base.grid, 0, base.grid.rows, base.inputSize);
  const floor = { ...base, readRow: (row: number) => Promise.resolve(preloaded[row]!) };
  const cells = base.grid.columns * base.grid.rows;
  const job: number[] = [];
  const bare: number[] = [];
  const readShare: number[] = [];
  const slowdown: number[] = [];
  let considered = 0;
  for (let attempt = 0; attempt <= runs; attempt++) {
    // Alternating, so both see the same machine state; the first round warms both up.
    let started = performance.now();
    const outcome = await inferSlide(base);
    const jobMs = performance.now() - started;
    started = performance.now();
    const alone = await inferSlide(floor);
    const floorMs = performance.now() - started;
    if (attempt === 0) continue;
    job.push((cells / jobMs) * 1000);
    bare.push((cells / floorMs) * 1000);
    readShare.push(outcome.readMs / jobMs);
    slowdown.push(outcome.inferMs / alone.inferMs);
    considered = outcome.considered;
  }
  return {
    jobRate: summarize(job).median,
    floorRate: summarize(bare).median,
    readShare: summarize(readShare).median,
    inferenceSlowdown: summarize(slowdown).median,
    considered,
  };
}

export async function run(args: string[]): Promise<void> {
  const runsArg = args.indexOf('--runs');
  const runs = runsArg === -1 ? 7 : Number(args[runsArg + 1]);
  restoreVipsHome();
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'predict-bench-'));
  try {
    const folders = { builtinDir: path.join(work, 'builtin'), modelsDir: path.join(work, 'models') };
    await writeBuiltinModels(folders.builtinDir);
    await installPatchClassifier(folders.modelsDir, { modelName: PATCH_MODEL, inputSize: 128, magnification: 10 });
    const registry = createModelRegistry(folders);
    const builtIn = (await registry.find('others'))!;
    const patch = (await registry.find(PATCH_MODEL))!;
    const tissue = await registry.tissue();
    /** Each model with the magnifications it is read at on the real slide; the replica is read at ×10. */
    const models: { title: string; model: InstalledModel; magnifications: number[] }[] = [
      { title: 'built-in nuclear density', model: builtIn, magnifications: MAGNIFICATIONS },
      {
        title: `patch classifier (${(classifierFlops(patch.inputSize) / 1e6).toFixed(0)} MFLOP a cell)`,
        model: patch,
        magnifications: [10],
      },
    ];
    const pyramids = createPyramidCache({ blobs: new FilesystemBlobStore(work), cacheDir: path.join(work, 'cache') });
    const rows: string[][] = [];
    const slides = [
      { name: SLIDE, path: slidePath(SLIDE) },
      {
        name: `${SLIDE} replicated ${REPLICATE}×${REPLICATE}`,
        path: await deriveLargeSlide(work, [REPLICATE, REPLICATE]),
      },
    ];
    for (const [index, source] of slides.entries()) {
      console.log(`Converting ${source.name} as an upload would…`);
      const converted = await convertImage({
        sourcePath: source.path,
        workDir: await fs.mkdtemp(path.join(work, 'convert-')),
        timeoutMs: 600_000,
      });
      const pyramid = await pyramids.get(path.relative(work, converted.layers[0]!.pyramidPath));
      const micronsPerPixel = converted.resolution ? 10_000 / converted.resolution.x : undefined;
      const slide = slideMagnification(micronsPerPixel, converted.magnification);
      for (const entry of models) {
        const classifier = await registry.classifier(entry.model);
        for (const magnification of index === 0 ? entry.magnifications : [10]) {
          const model = { ...entry.model, magnification };
          const grid = planGrid(pyramid.levels, slide, model);
          const page = pyramid.levels[grid.level]!;
          const measured = await measure(
            {
              source: { path: await pyramid.localPath(), page: page.index, width: page.width, height: page.height },
              grid,
              inputSize: model.inputSize,
              batchSize: model.batchSize,
              tissue,
              classifier,
              onProgress: async () => undefined,
            },
            runs,
          );
          const ratio = measured.jobRate / measured.floorRate;
          rows.push([
            `${index === 0 ? 'real' : `${REPLICATE}×${REPLICATE}`} ${converted.width}×${converted.height}`,
            entry.title,
            `×${magnification} (level ${grid.level}, ${grid.columns}×${grid.rows} cells, ${measured.considered} tissue)`,
            measured.jobRate.toFixed(0),
            measured.floorRate.toFixed(0),
            ratio.toFixed(2),
            `${(100 * measured.readShare).toFixed(0)} %`,
            `×${measured.inferenceSlowdown.toFixed(2)}`,
            ratio >= GOAL_RATIO ? 'yes' : 'no',
          ]);
        }
      }
    }
    await pyramids.closeAll();
    console.log(
      `\n${SLIDE} (×20, 0.499 µm/px) and a replica; ${runs} runs each, medians; cells of ${builtIn.inputSize} px\n`,
    );
    console.log(
      formatTable(
        [
          { title: 'slide' },
          { title: 'model' },
          { title: 'read at' },
          { title: 'predict job (cells/s)', align: 'right' },
          { title: 'ORT on loaded tensors (cells/s)', align: 'right' },
          { title: 'ratio', align: 'right' },
          { title: 'reading tiles', align: 'right' },
          { title: 'inference time, job ÷ alone', align: 'right' },
          { title: `≥ ${GOAL_RATIO}` },
        ],
        rows,
      ),
    );
    console.log(
      '\nThe job reads each row of cells from the pyramid (libvips) while ONNX Runtime judges the row before;' +
        ' "reading tiles" is the time spent reading as a share of the whole run (it overlaps inference).' +
        ' The built-in models are a few element-wise operations a cell, bound by memory like the decoding beside' +
        ' them: "inference time, job ÷ alone" is how much longer the same inference takes while rows are read.',
    );
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
