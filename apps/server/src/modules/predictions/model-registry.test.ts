import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nuclearDensityModelSpec, tissueModelSpec } from './builtin-models.ts';
import { createModelRegistry, writeBuiltinModels } from './model-registry.ts';
import { encodeModel } from './onnx-graph.ts';

const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-models-'));
afterAll(() => fs.rm(scratch, { recursive: true, force: true }));

const FILES = ['tissue-detection.onnx', 'nuclear-density.onnx', 'manifest.json'];
const LONG_AGO = new Date('2000-01-01T00:00:00Z');

/** Dates every file of the folder long ago: a file written since has a date of today. */
async function dateLongAgo(folder: string): Promise<void> {
  for (const file of FILES) await fs.utimes(path.join(folder, file), LONG_AGO, LONG_AGO);
}

async function rewritten(folder: string): Promise<string[]> {
  const written: string[] = [];
  for (const file of FILES) {
    const { mtime } = await fs.stat(path.join(folder, file));
    if (mtime.getTime() !== LONG_AGO.getTime()) written.push(file);
  }
  return written;
}

describe('the built-in models', () => {
  it('are written at a start only when the folder lacks them or holds those of other definitions', async () => {
    const folder = path.join(scratch, 'builtin-models');
    await writeBuiltinModels(folder);
    expect(await fs.readFile(path.join(folder, 'tissue-detection.onnx'))).toEqual(
      Buffer.from(encodeModel(tissueModelSpec())),
    );
    expect(await fs.readFile(path.join(folder, 'nuclear-density.onnx'))).toEqual(
      Buffer.from(encodeModel(nuclearDensityModelSpec())),
    );
    const registry = createModelRegistry({ builtinDir: folder, modelsDir: path.join(scratch, 'none'), refreshMs: 0 });
    expect((await registry.find('others'))?.path).toBe(path.join(folder, 'nuclear-density.onnx'));

    // The next starts: nothing encoded or written.
    await dateLongAgo(folder);
    await writeBuiltinModels(folder);
    await writeBuiltinModels(folder);
    expect(await rewritten(folder)).toEqual([]);

    // A file gone: all written again.
    await fs.rm(path.join(folder, 'tissue-detection.onnx'));
    await writeBuiltinModels(folder);
    await fs.utimes(path.join(folder, 'tissue-detection.onnx'), LONG_AGO, LONG_AGO);
    expect(await rewritten(folder)).toEqual(['nuclear-density.onnx', 'manifest.json']);

    // Written from other definitions (a release that changed a model): all written again.
    await dateLongAgo(folder);
    await fs.writeFile(path.join(folder, '.written-from.sha256'), 'the fingerprint of older definitions');
    await writeBuiltinModels(folder);
    expect(await rewritten(folder)).toEqual(FILES);
    expect(await fs.readFile(path.join(folder, 'nuclear-density.onnx'))).toEqual(
      Buffer.from(encodeModel(nuclearDensityModelSpec())),
    );
    expect((await fs.readdir(folder)).sort()).toEqual([...FILES, '.written-from.sha256'].sort());
  });
});
