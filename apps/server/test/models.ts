import path from 'node:path';
import type { ModelFolders } from '../src/modules/predictions/model-registry.ts';

/**
 * The model folders of a test app's data folder: the built-in models, and MODELS_DIR for a test to
 * install into, read again at every call.
 */
export function testModelFolders(dataDir: string): ModelFolders {
  return { builtinDir: path.join(dataDir, 'builtin-models'), modelsDir: path.join(dataDir, 'models'), refreshMs: 0 };
}
