import type { DrawingGeometry, DrawingShape, Position } from '@pathology/contract';

/** An axis-aligned box in image pixels. */
export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Vertices of the polygon an ellipse is drawn as on screen. */
const ELLIPSE_SEGMENTS = 64;

export function ellipsePoints(center: Position, [rx, ry]: readonly [number, number]): Position[] {
  const points: Position[] = [];
  for (let i = 0; i <= ELLIPSE_SEGMENTS; i++) {
    const angle = (2 * Math.PI * i) / ELLIPSE_SEGMENTS;
    points.push([center[0] + rx * Math.cos(angle), center[1] + ry * Math.sin(angle)]);
  }
  return points;
}

/** The paths a geometry is drawn with: one per ring or line; a point has none. */
export function pathsOf(geometry: DrawingGeometry): Position[][] {
  switch (geometry.type) {
    case 'Point':
      return [];
    case 'LineString':
      return [geometry.coordinates];
    case 'Polygon':
      return geometry.coordinates;
    case 'Ellipse':
      return [ellipsePoints(geometry.center, geometry.radii)];
  }
}

export function boxOf(geometry: DrawingGeometry): Box {
  if (geometry.type === 'Ellipse') {
    const [cx, cy] = geometry.center;
    const [rx, ry] = geometry.radii;
    return { minX: cx - rx, minY: cy - ry, maxX: cx + rx, maxY: cy + ry };
  }
  const paths = geometry.type === 'Point' ? [[geometry.coordinates]] : pathsOf(geometry);
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  // Paths one by one, not flattened: a layer's thousands of outlines hold millions of points.
  for (const path of paths) {
    for (const [x, y] of path) {
      if (x < box.minX) box.minX = x;
      if (y < box.minY) box.minY = y;
      if (x > box.maxX) box.maxX = x;
      if (y > box.maxY) box.maxY = y;
    }
  }
  return box;
}

const closeRing = (points: Position[]): Position[] => [...points, points[0]!];

/**
 * The geometry a tool makes from the points of a gesture (image pixels): two corners for a rectangle
 * or ellipse, start and end for lines, every point for a polygon or freehand (closed when `closed`).
 */
export function geometryFromGesture(shape: DrawingShape, points: readonly Position[], closed = true): DrawingGeometry {
  const first = points[0]!;
  const last = points.at(-1)!;
  switch (shape) {
    case 'point':
      return { type: 'Point', coordinates: first };
    case 'line':
    case 'arrow':
    case 'ruler':
      return { type: 'LineString', coordinates: [first, last] };
    case 'rectangle': {
      const [x0, x1] = [Math.min(first[0], last[0]), Math.max(first[0], last[0])];
      const [y0, y1] = [Math.min(first[1], last[1]), Math.max(first[1], last[1])];
      return {
        type: 'Polygon',
        coordinates: [
          closeRing([
            [x0, y0],
            [x1, y0],
            [x1, y1],
            [x0, y1],
          ]),
        ],
      };
    }
    case 'ellipse':
      return {
        type: 'Ellipse',
        center: [(first[0] + last[0]) / 2, (first[1] + last[1]) / 2],
        radii: [Math.abs(last[0] - first[0]) / 2, Math.abs(last[1] - first[1]) / 2],
      };
    case 'polygon':
    case 'freehand':
      return closed && points.length >= 3
        ? { type: 'Polygon', coordinates: [closeRing([...points])] }
        : { type: 'LineString', coordinates: [...points] };
  }
}

/** Whether a gesture is big enough to be a drawing rather than a slip of the hand (screen pixels). */
export function isMeaningfulGesture(shape: DrawingShape, screenPoints: readonly Position[]): boolean {
  if (shape === 'point') return screenPoints.length > 0;
  if (shape === 'polygon') return screenPoints.length >= 3;
  const box = boxOf({ type: 'LineString', coordinates: [...screenPoints, screenPoints[0]!] });
  return Math.max(box.maxX - box.minX, box.maxY - box.minY) >= 4;
}

export function translate(geometry: DrawingGeometry, dx: number, dy: number): DrawingGeometry {
  const move = ([x, y]: Position): Position => [x + dx, y + dy];
  switch (geometry.type) {
    case 'Point':
      return { type: 'Point', coordinates: move(geometry.coordinates) };
    case 'LineString':
      return { type: 'LineString', coordinates: geometry.coordinates.map(move) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: geometry.coordinates.map((ring) => ring.map(move)) };
    case 'Ellipse':
      return { ...geometry, center: move(geometry.center) };
  }
}

/** A handle that reshapes a drawing: a vertex, or for an ellipse a point on each axis. */
export interface Handle {
  index: number;
  at: Position;
}

/** The reshape handles of a geometry; a rectangle keeps its four corners, a ring's closing point is not repeated. */
export function handlesOf(geometry: DrawingGeometry): Handle[] {
  switch (geometry.type) {
    case 'Point':
      return [];
    case 'LineString':
      return geometry.coordinates.map((at, index) => ({ index, at }));
    case 'Polygon':
      return geometry.coordinates[0]!.slice(0, -1).map((at, index) => ({ index, at }));
    case 'Ellipse': {
      const [cx, cy] = geometry.center;
      return [
        { index: 0, at: [cx + geometry.radii[0], cy] },
        { index: 1, at: [cx, cy + geometry.radii[1]] },
      ];
    }
  }
}

/**
 * The geometry with handle `index` moved to `to`. A rectangle stays a rectangle (the opposite corner
 * holds); a polygon ring stays closed; an ellipse changes the radius of that axis.
 */
export function reshape(shape: DrawingShape, geometry: DrawingGeometry, index: number, to: Position): DrawingGeometry {
  switch (geometry.type) {
    case 'Point':
      return geometry;
    case 'LineString':
      return { type: 'LineString', coordinates: geometry.coordinates.map((p, i) => (i === index ? to : p)) };
    case 'Ellipse': {
      const radii: [number, number] = [...geometry.radii];
      radii[index] = Math.abs(to[index]! - geometry.center[index]!);
      return { ...geometry, radii };
    }
    case 'Polygon': {
      const outline = geometry.coordinates[0]!.slice(0, -1);
      if (shape === 'rectangle') {
        const opposite = outline[(index + 2) % 4]!;
        return geometryFromGesture('rectangle', [opposite, to]);
      }
      const moved = outline.map((p, i) => (i === index ? to : p));
      return { type: 'Polygon', coordinates: [closeRing(moved), ...geometry.coordinates.slice(1)] };
    }
  }
}

function distanceToSegment(p: Position, a: Position, b: Position): number {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const lengthSquared = dx * dx + dy * dy;
  const t =
    lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / lengthSquared));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** Even-odd rule, so a point in a hole is outside. */
function insideRings(p: Position, rings: readonly Position[][]): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** Whether `p` touches the drawing: within `tolerance` of a line or outline, or inside a closed shape. */
export function hits(geometry: DrawingGeometry, p: Position, tolerance: number): boolean {
  if (geometry.type === 'Point') {
    return Math.hypot(p[0] - geometry.coordinates[0], p[1] - geometry.coordinates[1]) <= tolerance * 2;
  }
  const paths = pathsOf(geometry);
  for (const path of paths) {
    for (let i = 1; i < path.length; i++) {
      if (distanceToSegment(p, path[i - 1]!, path[i]!) <= tolerance) return true;
    }
  }
  return geometry.type !== 'LineString' && insideRings(p, paths);
}
