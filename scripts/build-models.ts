import path from 'node:path';
import { writeBuiltinModels } from '../apps/server/src/modules/predictions/model-registry.ts';

/**
 * `npm run models -- <folder>`: writes the built-in ONNX models (tissue detection, nuclear density)
 * and their manifest into a folder, to inspect them (Netron) or to start a MODELS_DIR from. The server
 * writes the same files into DATA_DIR/builtin-models at its start when they are missing or changed.
 */
const folder = path.resolve(process.argv[2] ?? 'models');
await writeBuiltinModels(folder);
console.log(`Built-in models written to ${folder}`);
