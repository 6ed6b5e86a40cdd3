import type { ImageLayerMetadata } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { initialLayer, layerName, sortLayers, zPositionText } from './layers.ts';

const layer = (layerNumber: number, metadata: Partial<ImageLayerMetadata> | null = null) => ({
  id: `layer-${layerNumber}`,
  layerNumber,
  metadata: metadata && { the_z: null, position_z: null, position_z_unit: null, ...metadata },
});

const zStack = [4, 2, 0, 3, 1].map((n) => layer(n, { the_z: n, position_z: n - 2, position_z_unit: 'µm' }));

describe('initialLayer', () => {
  it('is the layer at position_z 0', () => {
    expect(initialLayer(zStack)?.id).toBe('layer-2');
  });

  it('is layer 0 when no layer sits at z 0', () => {
    expect(initialLayer([layer(1), layer(0)])?.id).toBe('layer-0');
    expect(initialLayer([layer(1, { position_z: 5 }), layer(0, { position_z: 4 })])?.id).toBe('layer-0');
  });

  it('is undefined without layers', () => {
    expect(initialLayer([])).toBeUndefined();
  });
});

describe('layerName', () => {
  it('names a one-layer image single-layer', () => {
    expect(layerName([layer(0)], layer(0))).toBe('single-layer');
  });

  it('counts layers from 1 in stack order and adds the z position', () => {
    const third = zStack.find((candidate) => candidate.layerNumber === 2);
    expect(third && layerName(zStack, third)).toBe('5 layers : layer 3 (z = 0 µm)');
    expect(sortLayers(zStack).map((candidate) => layerName(zStack, candidate))).toEqual([
      '5 layers : layer 1 (z = -2 µm)',
      '5 layers : layer 2 (z = -1 µm)',
      '5 layers : layer 3 (z = 0 µm)',
      '5 layers : layer 4 (z = 1 µm)',
      '5 layers : layer 5 (z = 2 µm)',
    ]);
  });

  it('leaves the z position out when it is unknown', () => {
    const layers = [layer(0), layer(1)];
    expect(layerName(layers, layers[1] ?? layer(1))).toBe('2 layers : layer 2');
  });
});

describe('zPositionText', () => {
  it('writes micrometre units as µm and keeps others', () => {
    expect(zPositionText(layer(0, { position_z: 1.5, position_z_unit: 'um' }))).toBe('z = 1.5 µm');
    expect(zPositionText(layer(0, { position_z: 2, position_z_unit: 'nm' }))).toBe('z = 2 nm');
    expect(zPositionText(layer(0, { position_z: 2 }))).toBe('z = 2');
    expect(zPositionText(layer(0))).toBeUndefined();
  });
});
