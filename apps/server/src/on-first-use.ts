import { createRequire } from 'node:module';

/**
 * Packages that only some jobs and requests need, loaded when first used rather than at every start: ONNX Runtime
 * (a worker running a prediction) and Skia's canvas (drawing detection tiles) are tens of MiB of every process's
 * memory at rest and part of its start. Both ship CommonJS, so `require` loads them where they are first needed.
 */
const require = createRequire(import.meta.url);

type OnnxRuntime = typeof import('onnxruntime-node');
type SkiaCanvas = typeof import('@napi-rs/canvas');

let onnxRuntimeModule: OnnxRuntime | undefined;
let skiaCanvasModule: SkiaCanvas | undefined;

export function onnxRuntime(): OnnxRuntime {
  return (onnxRuntimeModule ??= require('onnxruntime-node') as OnnxRuntime);
}

export function skiaCanvas(): SkiaCanvas {
  return (skiaCanvasModule ??= require('@napi-rs/canvas') as SkiaCanvas);
}
