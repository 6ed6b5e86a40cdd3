import { encodeModel, type GraphNode, type GraphSpec } from './onnx-graph.ts';

/** Stain vectors of haematoxylin, eosin and DAB in optical density (Ruifrok & Johnston, 2001). */
const STAINS = [
  [0.65, 0.704, 0.286],
  [0.072, 0.99, 0.105],
  [0.268, 0.57, 0.776],
];

/** Mean optical density above which a pixel is tissue rather than bright glass. */
const TISSUE_OD = 0.12;
/** Haematoxylin concentration above which a pixel belongs to a nucleus. */
const NUCLEUS_H = 0.8;
/** Share of nuclear pixels at which a cell is even odds "high nuclear density", and how steeply odds rise. */
const DENSITY_MIDPOINT = 0.2;
const DENSITY_STEEPNESS = 20;

/** How steeply a pixel's nucleus probability rises with its haematoxylin past NUCLEUS_H. */
const SEGMENTATION_STEEPNESS = 10;

export const BUILTIN_INPUT_SIZE = 128;
export const BUILTIN_VERSION = '1.0.0';

function normalised(vector: number[]): number[] {
  const length = Math.hypot(...vector);
  return vector.map((value) => value / length);
}

function inverse3(m: number[][]): number[][] {
  const [[a, b, c], [d, e, f], [g, h, i]] = m as [number[], number[], number[]] as [
    [number, number, number],
    [number, number, number],
    [number, number, number],
  ];
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  return [
    [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
    [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
    [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
  ];
}

/** Per-channel weights that turn optical density into haematoxylin concentration (colour deconvolution). */
export function haematoxylinWeights(): number[] {
  const unmix = inverse3(STAINS.map(normalised));
  return unmix.map((row) => row[0]!);
}

const batch = 'batch';
// Any cell size: tissue detection runs on the cells of whichever model follows it.
const imageInput = { name: 'image', shape: [batch, 3, 'height', 'width'] };

/** RGB 0–255 → optical density -ln((I + 1) / 256), per channel. */
const OPTICAL_DENSITY: GraphNode[] = [
  { op: 'Add', inputs: ['image', 'one'], output: 'shifted' },
  { op: 'Div', inputs: ['shifted', 'full_scale'], output: 'transmitted' },
  { op: 'Log', inputs: ['transmitted'], output: 'log_transmitted' },
  { op: 'Neg', inputs: ['log_transmitted'], output: 'od' },
];

/** The share of a cell's pixels where `channel` (one channel, N×1×S×S) exceeds `threshold`, as N×1. */
function shareAbove(channel: string, threshold: string, output: string): GraphNode[] {
  return [
    { op: 'Greater', inputs: [channel, threshold], output: `${output}_mask` },
    { op: 'Cast', inputs: [`${output}_mask`], output: `${output}_float`, attributes: [{ name: 'to', int: 1 }] },
    {
      op: 'ReduceMean',
      inputs: [`${output}_float`],
      output: `${output}_mean`,
      attributes: [
        { name: 'axes', ints: [2, 3] },
        { name: 'keepdims', int: 1 },
      ],
    },
    { op: 'Flatten', inputs: [`${output}_mean`], output, attributes: [{ name: 'axis', int: 1 }] },
  ];
}

const commonConstants = {
  one: { dims: [], values: [1] },
  full_scale: { dims: [], values: [256] },
};

/** Tissue detection: the share of a cell that is tissue (mean optical density above glass), N×1 in 0–1. */
export function tissueModelSpec(): GraphSpec {
  return {
    name: 'tissue-detection',
    metadata: { version: BUILTIN_VERSION, description: 'Share of tissue pixels per cell (optical density)' },
    input: imageInput,
    output: { name: 'tissue', shape: [batch, 1] },
    constants: {
      ...commonConstants,
      channel_mean: { dims: [1, 3, 1, 1], values: [1 / 3, 1 / 3, 1 / 3] },
      tissue_od: { dims: [], values: [TISSUE_OD] },
    },
    nodes: [
      ...OPTICAL_DENSITY,
      { op: 'Conv', inputs: ['od', 'channel_mean'], output: 'mean_od' },
      ...shareAbove('mean_od', 'tissue_od', 'tissue'),
    ],
  };
}

/**
 * Nuclear density: haematoxylin by colour deconvolution, the share of nuclear pixels, and a logistic
 * curve from that share to the probability that the cell is densely nucleated (N×1 in 0–1).
 */
export function nuclearDensityModelSpec(): GraphSpec {
  return {
    name: 'nuclear-density',
    metadata: {
      version: BUILTIN_VERSION,
      description: 'Haematoxylin nuclear density per cell (Ruifrok–Johnston colour deconvolution)',
    },
    input: imageInput,
    output: { name: 'probabilities', shape: [batch, 1] },
    constants: {
      ...commonConstants,
      haematoxylin: { dims: [1, 3, 1, 1], values: haematoxylinWeights() },
      nucleus_h: { dims: [], values: [NUCLEUS_H] },
      midpoint: { dims: [], values: [DENSITY_MIDPOINT] },
      steepness: { dims: [], values: [DENSITY_STEEPNESS] },
    },
    nodes: [
      ...OPTICAL_DENSITY,
      { op: 'Conv', inputs: ['od', 'haematoxylin'], output: 'h' },
      ...shareAbove('h', 'nucleus_h', 'nuclear_share'),
      { op: 'Sub', inputs: ['nuclear_share', 'midpoint'], output: 'centred' },
      { op: 'Mul', inputs: ['centred', 'steepness'], output: 'logit' },
      { op: 'Sigmoid', inputs: ['logit'], output: 'probabilities' },
    ],
  };
}

/**
 * Nuclear segmentation: the probability that each pixel belongs to a nucleus (haematoxylin by colour deconvolution
 * through a logistic curve around the nuclear threshold), N×1×H×W in 0–1: a small object-output model for operators
 * to start from and for the tests of object output.
 */
export function nuclearSegmentationModelSpec(): GraphSpec {
  return {
    name: 'nuclear-segmentation',
    metadata: { version: BUILTIN_VERSION, description: 'Per-pixel nucleus probability (haematoxylin)' },
    input: imageInput,
    output: { name: 'nuclei', shape: [batch, 1, 'height', 'width'] },
    constants: {
      ...commonConstants,
      haematoxylin: { dims: [1, 3, 1, 1], values: haematoxylinWeights() },
      nucleus_h: { dims: [], values: [NUCLEUS_H] },
      steepness: { dims: [], values: [SEGMENTATION_STEEPNESS] },
    },
    nodes: [
      ...OPTICAL_DENSITY,
      { op: 'Conv', inputs: ['od', 'haematoxylin'], output: 'h' },
      { op: 'Sub', inputs: ['h', 'nucleus_h'], output: 'centred' },
      { op: 'Mul', inputs: ['centred', 'steepness'], output: 'logit' },
      { op: 'Sigmoid', inputs: ['logit'], output: 'nuclei' },
    ],
  };
}

export const buildNuclearSegmentationModel = (): Uint8Array => encodeModel(nuclearSegmentationModelSpec());
