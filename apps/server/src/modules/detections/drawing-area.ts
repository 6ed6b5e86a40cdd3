import type { DrawingGeometry, Position } from '@pathology/contract';
import { geoJsonGeometry } from '../drawings/drawing-export.ts';
import type { Region } from './detection-grid.ts';

/**
 * A drawing's outline as PostgreSQL `polygon` text with its bounding region, for counting what lies inside: polygons
 * (rectangles are stored as polygons) by their outer ring, ellipses as the polygon they are exported as. Undefined for
 * shapes without an inside (points, lines).
 */
export function drawingArea(geometry: DrawingGeometry): { polygon: string; bounds: Region } | undefined {
  const shape = geoJsonGeometry(geometry);
  if (shape.type !== 'Polygon') return undefined;
  const ring: readonly Position[] = shape.coordinates[0]!;
  if (ring.length < 3) return undefined;
  const xs = ring.map(([x]) => x);
  const ys = ring.map(([, y]) => y);
  const [minX, minY] = [Math.min(...xs), Math.min(...ys)];
  return {
    polygon: `(${ring.map(([x, y]) => `(${x},${y})`).join(',')})`,
    bounds: { x: minX, y: minY, width: Math.max(...xs) - minX, height: Math.max(...ys) - minY },
  };
}
