import fs from 'node:fs/promises';
import path from 'node:path';
import type { ManifestEntry } from '../../apps/server/src/modules/predictions/model-manifest.ts';
import { encodeModel, type GraphNode } from '../../apps/server/src/modules/predictions/onnx-graph.ts';

/** Output channels of each 3×3 convolution and its stride. */
const LAYERS = [
  { channels: 32, stride: 1 },
  { channels: 64, stride: 2 },
  { channels: 128, stride: 2 },
  { channels: 128, stride: 2 },
];
const LABELS = ['Tumour', 'Benign'];

/** Deterministic weights (He-uniform): the benchmark measures speed, not what the model finds. */
function weights(count: number, fanIn: number, seed: number): number[] {
  let state = seed;
  const limit = Math.sqrt(6 / fanIn);
  return Array.from({ length: count }, () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return (state / 2 ** 32 - 0.5) * 2 * limit;
  });
}

/** Multiply–adds of one cell, counted as two operations each. */
export function classifierFlops(inputSize: number): number {
  let [side, channels, flops] = [inputSize, 3, 0];
  for (const layer of LAYERS) {
    side = Math.ceil(side / layer.stride);
    flops += 2 * side * side * layer.channels * channels * 9;
    channels = layer.channels;
  }
  return flops + 2 * channels * LABELS.length;
}

/**
 * A patch classifier of the shape operators install (3×3 convolutions, pooling, a dense layer,
 * softmax), some 400 million operations a cell: about a MobileNetV2's (300 at 224 px), a fifth of a
 * ResNet-18's (1,800), and hundreds of times the built-in model's work;
 * written into `folder` with its manifest entry as an operator would drop it into MODELS_DIR.
 */
export async function installPatchClassifier(
  folder: string,
  options: { modelName: string; inputSize: number; magnification: number },
): Promise<void> {
  const constants: Record<string, { dims: number[]; values: number[] }> = {
    scale: { dims: [1], values: [1 / 255] },
  };
  const nodes: GraphNode[] = [{ op: 'Mul', inputs: ['image', 'scale'], output: 'x0' }];
  let channels = 3;
  LAYERS.forEach((layer, index) => {
    const [w, b] = [`w${index}`, `b${index}`];
    constants[w] = {
      dims: [layer.channels, channels, 3, 3],
      values: weights(layer.channels * channels * 9, channels * 9, index + 1),
    };
    constants[b] = { dims: [layer.channels], values: new Array<number>(layer.channels).fill(0.01) };
    nodes.push(
      {
        op: 'Conv',
        inputs: [`x${index}`, w, b],
        output: `c${index}`,
        attributes: [
          { name: 'kernel_shape', ints: [3, 3] },
          { name: 'pads', ints: [1, 1, 1, 1] },
          { name: 'strides', ints: [layer.stride, layer.stride] },
        ],
      },
      { op: 'Relu', inputs: [`c${index}`], output: `x${index + 1}` },
    );
    channels = layer.channels;
  });
  const last = `x${LAYERS.length}`;
  constants.dense = { dims: [channels, LABELS.length], values: weights(channels * LABELS.length, channels, 99) };
  constants.bias = { dims: [LABELS.length], values: [0, 0] };
  nodes.push(
    { op: 'GlobalAveragePool', inputs: [last], output: 'pooled' },
    { op: 'Flatten', inputs: ['pooled'], output: 'features', attributes: [{ name: 'axis', int: 1 }] },
    { op: 'Gemm', inputs: ['features', 'dense', 'bias'], output: 'logits' },
    { op: 'Softmax', inputs: ['logits'], output: 'probabilities', attributes: [{ name: 'axis', int: 1 }] },
  );
  const model = encodeModel({
    name: 'patch-classifier',
    metadata: { version: 'bench-1' },
    input: { name: 'image', shape: ['batch', 3, options.inputSize, options.inputSize] },
    output: { name: 'probabilities', shape: ['batch', LABELS.length] },
    constants,
    nodes,
  });
  await fs.mkdir(folder, { recursive: true });
  await fs.writeFile(path.join(folder, 'patch-classifier.onnx'), model);
  const entry: Omit<ManifestEntry, 'batchSize'> = {
    modelName: options.modelName,
    file: 'patch-classifier.onnx',
    version: 'bench-1',
    inputSize: options.inputSize,
    magnification: options.magnification,
    labels: LABELS,
    labelGroups: [
      {
        name: 'tumour',
        labelNames: ['Tumour'],
        type: 'abnormal',
        displayName: 'Tumour',
        color: '#fa5252',
        positive: true,
      },
    ],
  };
  await fs.writeFile(path.join(folder, 'manifest.json'), JSON.stringify({ models: [entry] }));
}
