import { onnxProto } from '../../on-first-use.ts';

/** ONNX IR 8 with opset 13: read by every onnxruntime of the last years. */
const IR_VERSION = 8;
const OPSET = 13;
/**
 * What, beside a graph's spec, decides the bytes encodeModel gives: the built-in models are encoded again when it
 * changes, so a change to how specs are encoded changes it too.
 */
export const ENCODING = `onnx ir ${IR_VERSION} opset ${OPSET}`;

type Attribute = { name: string } & ({ ints: number[] } | { int: number } | { float: number });

export interface GraphNode {
  op: string;
  inputs: string[];
  output: string;
  attributes?: Attribute[];
}

export interface GraphSpec {
  name: string;
  /** Shown to operators in the model's metadata (`version`, `description`, …). */
  metadata: Record<string, string>;
  /** A float tensor input; string dimensions are named symbolic ones (the batch). */
  input: { name: string; shape: (number | string)[] };
  output: { name: string; shape: (number | string)[] };
  /** Float constants by name. */
  constants: Record<string, { dims: number[]; values: number[] }>;
  nodes: GraphNode[];
}

type Onnx = ReturnType<typeof onnxProto>['onnx'];

function valueInfo(onnx: Onnx, { name, shape }: { name: string; shape: (number | string)[] }) {
  return onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: {
        elemType: onnx.TensorProto.DataType.FLOAT,
        shape: { dim: shape.map((dim) => (typeof dim === 'number' ? { dimValue: dim } : { dimParam: dim })) },
      },
    },
  });
}

function attribute(onnx: Onnx, spec: Attribute) {
  const { AttributeType } = onnx.AttributeProto;
  if ('ints' in spec) return onnx.AttributeProto.create({ name: spec.name, type: AttributeType.INTS, ints: spec.ints });
  if ('int' in spec) return onnx.AttributeProto.create({ name: spec.name, type: AttributeType.INT, i: spec.int });
  return onnx.AttributeProto.create({ name: spec.name, type: AttributeType.FLOAT, f: spec.float });
}

/** The bytes of an ONNX model file for a small float graph. */
export function encodeModel(spec: GraphSpec): Uint8Array {
  const { onnx } = onnxProto();
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const graph = onnx.GraphProto.create({
    name: spec.name,
    input: [valueInfo(onnx, spec.input)],
    output: [valueInfo(onnx, spec.output)],
    initializer: Object.entries(spec.constants).map(([name, { dims, values }]) =>
      onnx.TensorProto.create({ name, dims, dataType: FLOAT, floatData: values }),
    ),
    node: spec.nodes.map((node, index) =>
      onnx.NodeProto.create({
        name: `${node.op.toLowerCase()}_${index}`,
        opType: node.op,
        input: node.inputs,
        output: [node.output],
        attribute: (node.attributes ?? []).map((spec) => attribute(onnx, spec)),
      }),
    ),
  });
  const model = onnx.ModelProto.create({
    irVersion: IR_VERSION,
    opsetImport: [{ domain: '', version: OPSET }],
    producerName: 'pathology-slides',
    graph,
    metadataProps: Object.entries(spec.metadata).map(([key, value]) => ({ key, value })),
  });
  return onnx.ModelProto.encode(model).finish();
}
