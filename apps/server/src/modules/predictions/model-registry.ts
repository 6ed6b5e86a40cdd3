import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AI_MODELS, type InstalledAiModel } from '@pathology/contract';
import type { InferenceSession } from 'onnxruntime-node';
import { onnxRuntime } from '../../on-first-use.ts';
import { BUILTIN_INPUT_SIZE, BUILTIN_VERSION, nuclearDensityModelSpec, tissueModelSpec } from './builtin-models.ts';
import { readManifest, type InstalledModel, type ManifestEntry } from './model-manifest.ts';
import { encodeModel, ENCODING } from './onnx-graph.ts';

const TISSUE_FILE = 'tissue-detection.onnx';
/** The fingerprint of what the folder's built-in models were written from. */
const STAMP_FILE = '.written-from.sha256';
/**
 * Inference leaves one core to reading the slide (libvips decodes the next rows meanwhile), so the
 * two overlap instead of taking turns.
 */
const INFERENCE_THREADS = Math.max(1, os.availableParallelism() - 1);
/** How long a read of the manifests is trusted: models dropped into MODELS_DIR appear within this. */
const MANIFEST_TTL_MS = 5000;

const NUCLEAR_DENSITY: ManifestEntry = {
  modelName: 'others',
  file: 'nuclear-density.onnx',
  version: BUILTIN_VERSION,
  inputSize: BUILTIN_INPUT_SIZE,
  magnification: 10,
  labels: ['High nuclear density'],
  labelGroups: [
    {
      name: 'high-nuclear-density',
      labelNames: ['High nuclear density'],
      type: 'abnormal',
      displayName: 'High nuclear density',
      shortName: 'Dense',
      color: '#e8590c',
      positive: true,
    },
  ],
  batchSize: 64,
};

/**
 * Writes the models that come with the product (tissue detection, nuclear density) and their manifest into `folder`,
 * built from their graph definitions; the same bytes every time. Every process calls it at its start: the models
 * are encoded (protobufjs, a tenth of a second) only when the folder lacks them or holds those of other definitions.
 */
export async function writeBuiltinModels(folder: string): Promise<void> {
  const graphs = { [TISSUE_FILE]: tissueModelSpec(), [NUCLEAR_DENSITY.file]: nuclearDensityModelSpec() };
  const manifest = `${JSON.stringify({ models: [NUCLEAR_DENSITY] }, null, 2)}\n`;
  const stamp = createHash('sha256').update(JSON.stringify({ graphs, manifest, ENCODING })).digest('hex');
  const files = [...Object.keys(graphs), 'manifest.json'].map((file) => path.join(folder, file));
  const written = await fs.readFile(path.join(folder, STAMP_FILE), 'utf8').catch(() => null);
  const present = await Promise.all(files.map((file) => fs.stat(file).then(() => true, () => false)));
  if (written === stamp && present.every(Boolean)) return;
  await fs.mkdir(folder, { recursive: true });
  const contents: [string, string | Uint8Array][] = [
    ...Object.entries(graphs).map(([file, spec]): [string, Uint8Array] => [file, encodeModel(spec)]),
    ['manifest.json', manifest],
    // Last: a process stopped halfway leaves no stamp, and the next start writes all again.
    [STAMP_FILE, stamp],
  ];
  // Processes starting together write the same bytes; each file appears whole (written aside, then renamed).
  for (const [file, content] of contents) {
    const target = path.join(folder, file);
    const aside = `${target}.${process.pid}`;
    await fs.writeFile(aside, content);
    await fs.rename(aside, target);
  }
}

export interface ModelFolders {
  /** Where writeBuiltinModels put the product's own models. */
  builtinDir: string;
  /** MODELS_DIR: the operator's models; an entry here replaces a built-in one of the same name. */
  modelsDir: string;
  /** How long a read of the manifests is trusted; MANIFEST_TTL_MS unless given. */
  refreshMs?: number;
}

/** Which catalogue models can run here, and their ONNX Runtime sessions (opened once per process). */
export function createModelRegistry(folders: ModelFolders) {
  let cached: { at: number; models: Map<string, InstalledModel> } | undefined;
  const sessions = new Map<string, Promise<InferenceSession>>();

  async function installed(): Promise<Map<string, InstalledModel>> {
    if (cached && Date.now() - cached.at < (folders.refreshMs ?? MANIFEST_TTL_MS)) return cached.models;
    const models = new Map<string, InstalledModel>();
    for (const folder of [folders.builtinDir, folders.modelsDir]) {
      for (const entry of await readManifest(folder)) models.set(entry.modelName, entry);
    }
    cached = { at: Date.now(), models };
    return models;
  }

  function session(file: string): Promise<InferenceSession> {
    let opened = sessions.get(file);
    if (!opened) {
      opened = onnxRuntime().InferenceSession.create(file, {
        graphOptimizationLevel: 'all',
        intraOpNumThreads: INFERENCE_THREADS,
      });
      opened.catch(() => sessions.delete(file));
      sessions.set(file, opened);
    }
    return opened;
  }

  return {
    installed,
    async find(modelName: string): Promise<InstalledModel | undefined> {
      return (await installed()).get(modelName);
    },
    /** The catalogue with each model's real status and, where installed, its version and label groups. */
    async catalogue(): Promise<InstalledAiModel[]> {
      const models = await installed();
      return AI_MODELS.map((entry) => {
        const found = models.get(entry.modelName);
        return {
          ...entry,
          status: found ? 'available' : 'coming-soon',
          version: found?.version ?? null,
          labelGroups: (found?.labelGroups ?? []).map((group) => ({ ...group, modelName: entry.modelName })),
        };
      });
    },
    classifier: (model: InstalledModel) => session(model.path),
    tissue: () => session(path.join(folders.builtinDir, TISSUE_FILE)),
  };
}

export type ModelRegistry = ReturnType<typeof createModelRegistry>;
