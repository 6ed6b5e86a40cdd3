import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AI_MODELS, type InstalledAiModel } from '@pathology/contract';
import type { InferenceSession } from 'onnxruntime-node';
import { onnxRuntime } from '../../on-first-use.ts';
import { BUILTIN_INPUT_SIZE, BUILTIN_VERSION, buildNuclearDensityModel, buildTissueModel } from './builtin-models.ts';
import { readManifest, type InstalledModel, type ManifestEntry } from './model-manifest.ts';

const TISSUE_FILE = 'tissue-detection.onnx';
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
 * Writes the models that come with the product (tissue detection, nuclear density) and their manifest
 * into `folder`, built from their graph definitions; the same bytes every time.
 */
export async function writeBuiltinModels(folder: string): Promise<void> {
  await fs.mkdir(folder, { recursive: true });
  await fs.writeFile(path.join(folder, TISSUE_FILE), buildTissueModel());
  await fs.writeFile(path.join(folder, NUCLEAR_DENSITY.file), buildNuclearDensityModel());
  await fs.writeFile(path.join(folder, 'manifest.json'), `${JSON.stringify({ models: [NUCLEAR_DENSITY] }, null, 2)}\n`);
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
