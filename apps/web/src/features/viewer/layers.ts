import type { ImageLayerResource } from '@pathology/contract';

type Layer = Pick<ImageLayerResource, 'id' | 'layerNumber' | 'metadata'>;

/** Layers in their stack order (layerNumber ascending). */
export function sortLayers<T extends Layer>(layers: readonly T[]): T[] {
  return [...layers].sort((a, b) => a.layerNumber - b.layerNumber);
}

/** Spec part 2 §2 and §9: the layer at position_z 0, else layer 0 (the first in stack order). */
export function initialLayer<T extends Layer>(layers: readonly T[]): T | undefined {
  const sorted = sortLayers(layers);
  return sorted.find((layer) => layer.metadata?.position_z === 0) ?? sorted[0];
}

const MICRON_UNITS = new Set(['um', 'µm', 'μm', 'micron', 'microns', 'micrometer', 'micrometre']);

/** 'z = 2 µm', 'z = 1.5' (no unit stored), or undefined when the layer has no z position. */
export function zPositionText(layer: Layer): string | undefined {
  const z = layer.metadata?.position_z;
  if (z == null) return undefined;
  const rawUnit = layer.metadata?.position_z_unit?.trim();
  const unit = rawUnit && MICRON_UNITS.has(rawUnit.toLowerCase()) ? 'µm' : rawUnit;
  return unit ? `z = ${z} ${unit}` : `z = ${z}`;
}

/**
 * The layer's name as the spec words it (part 2 §2): 'single-layer' for a one-layer image, else
 * 'N layers : layer K' with K counted from 1 in stack order, followed by the z position when known:
 * '5 layers : layer 3 (z = 2 µm)'.
 */
export function layerName(layers: readonly Layer[], layer: Layer): string {
  if (layers.length <= 1) return 'single-layer';
  const position = sortLayers(layers).findIndex((candidate) => candidate.id === layer.id) + 1;
  const z = zPositionText(layer);
  const name = `${layers.length} layers : layer ${position}`;
  return z ? `${name} (${z})` : name;
}
