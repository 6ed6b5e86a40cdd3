import {
  decodePathInto,
  encodedPathsOf,
  expandGeometry,
  type CompactDrawing,
  type CompactGeometry,
  type Drawing,
  type DrawingGeometry,
  type Position,
} from '@pathology/contract';
import type { Box } from './drawing-geometry.ts';
import { simplifyFlat } from './simplify-path.ts';

const compactForms = new WeakMap<Drawing, CompactGeometry>();

/**
 * A drawing of a layer list whose points are decoded only when something reads its geometry (a
 * click near it, its measurement, a zoom that shows every point). Opening a layer of ten thousand
 * outlines then makes no array per point: its boxes and simplified outlines come from the encoded
 * form ({@link encodedBox}, {@link encodedOutlines}). The list is fresh from the network, so its
 * items are turned into drawings in place.
 */
export function withLazyGeometry(item: CompactDrawing): Drawing {
  const compact = item.geometry;
  if (!('encoded' in compact)) return item as Drawing;
  let expanded: DrawingGeometry | undefined;
  const drawing = Object.defineProperty(item, 'geometry', {
    enumerable: true,
    configurable: true,
    get: () => (expanded ??= expandGeometry(compact)),
  }) as Drawing;
  compactForms.set(drawing, compact);
  return drawing;
}

/** The encoded lines and rings of a drawing made by {@link withLazyGeometry}; undefined for any other. */
export function encodedPathsOfDrawing(drawing: Drawing): string[] | undefined {
  const compact = compactForms.get(drawing);
  return compact && encodedPathsOf(compact);
}

/** One buffer for every decode: outlines are read one at a time. */
let scratch = new Float64Array(1 << 14);

function decoded(encoded: string): number {
  if (scratch.length < encoded.length) scratch = new Float64Array(2 * encoded.length);
  return decodePathInto(encoded, scratch);
}

export function encodedBox(paths: readonly string[]): Box {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const encoded of paths) {
    const end = 2 * decoded(encoded);
    for (let i = 0; i < end; i += 2) {
      const x = scratch[i]!;
      const y = scratch[i + 1]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return { minX, minY, maxX, maxY };
}

/** The outlines simplified to `tolerance` image pixels, straight from their encoded form. */
export function encodedOutlines(paths: readonly string[], tolerance: number): Position[][] {
  return paths.map((encoded) => {
    // Decoded first: decoding may replace the buffer with a larger one.
    const count = decoded(encoded);
    return simplifyFlat(scratch, count, tolerance);
  });
}
