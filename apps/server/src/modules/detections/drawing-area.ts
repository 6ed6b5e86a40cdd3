import type { DrawingGeometry, Position } from '@pathology/contract';
import { geoJsonGeometry } from '../drawings/drawing-export.ts';

/** A drawing's outline, as points and as PostgreSQL `polygon` text. */
export interface DrawingArea {
  ring: readonly (readonly [number, number])[];
  polygon: string;
}

/**
 * A drawing's outline, for counting what lies inside: polygons (rectangles are stored as polygons) by their outer
 * ring, ellipses as the polygon they are exported as. Undefined for shapes without an inside (points, lines).
 */
export function drawingArea(geometry: DrawingGeometry): DrawingArea | undefined {
  const shape = geoJsonGeometry(geometry);
  if (shape.type !== 'Polygon') return undefined;
  const ring: readonly Position[] = shape.coordinates[0]!;
  if (ring.length < 3) return undefined;
  return {
    ring: ring.map(([x, y]) => [x, y] as const),
    polygon: `(${ring.map(([x, y]) => `(${x},${y})`).join(',')})`,
  };
}
