import type { DrawingGeometry, Position } from './drawings.ts';

/**
 * The compact form of a drawing's geometry for the layer lists: lines and rings as Google's encoded
 * polyline (delta-coded, variable-length, 0.1 image pixel steps), some four characters a point instead
 * of sixteen as JSON numbers. Points and ellipses stay as they are. Coordinates are stored already
 * rounded to these steps (see roundGeometry), so a decoded list equals the stored geometry.
 */
export type CompactGeometry =
  | Extract<DrawingGeometry, { type: 'Point' | 'Ellipse' }>
  | { type: 'LineString'; encoded: string }
  | { type: 'Polygon'; encoded: string[] };

const FACTOR = 10;

/** Half away from zero, as the encoding rounds, so encode(decode(x)) is x. */
const toSteps = (value: number, factor = FACTOR) => Math.sign(value) * Math.round(Math.abs(value) * factor);

/** Appends `value`'s zig-zag 5-bit groups as character codes at `at`; returns where the next goes. */
function encodeNumber(value: number, out: Uint8Array, at: number): number {
  let rest = value < 0 ? ~(value << 1) : value << 1;
  while (rest >= 0x20) {
    out[at++] = (0x20 | (rest & 0x1f)) + 63;
    rest >>= 5;
  }
  out[at++] = rest + 63;
  return at;
}

/** Characters turned into text a slice at a time (String.fromCharCode takes its codes as arguments). */
const TEXT_SLICE = 8192;

/**
 * `factor` 10 keeps 0.1 pixel; Google's maps use 1e5 (degrees to 5 decimals). The characters are written as codes
 * and turned into text in slices: a character string per group made a drawing of 100,000 points take 0.1 s.
 */
export function encodePath(points: readonly Position[], factor = FACTOR): string {
  // Seven 5-bit groups hold any step of a 32-bit number; a point has two.
  const codes = new Uint8Array(points.length * 14);
  let length = 0;
  let px = 0;
  let py = 0;
  for (const [x, y] of points) {
    const sx = toSteps(x, factor);
    const sy = toSteps(y, factor);
    length = encodeNumber(sx - px, codes, length);
    length = encodeNumber(sy - py, codes, length);
    px = sx;
    py = sy;
  }
  let text = '';
  for (let at = 0; at < length; at += TEXT_SLICE) {
    text += String.fromCharCode(...codes.subarray(at, Math.min(length, at + TEXT_SLICE)));
  }
  return text;
}

/**
 * Decodes into `out` as x0, y0, x1, y1, …, with no array per point: how a viewer reads ten thousand
 * outlines at once. `out` must hold `encoded.length` numbers (each point takes at least two
 * characters); returns the number of points.
 */
export function decodePathInto(encoded: string, out: Float64Array, factor = FACTOR): number {
  let index = 0;
  // A zig-zag number in 5-bit groups, a set 0x20 bit meaning more follow.
  const next = () => {
    let shift = 0;
    let result = 0;
    let byte: number;
    do {
      byte = encoded.charCodeAt(index++) - 63;
      result |= (byte & 0x1f) << shift;
      shift += 5;
    } while (byte >= 0x20);
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  let x = 0;
  let y = 0;
  let count = 0;
  while (index < encoded.length) {
    x += next();
    y += next();
    out[2 * count] = x / factor;
    out[2 * count + 1] = y / factor;
    count++;
  }
  return count;
}

export function decodePath(encoded: string, factor = FACTOR): Position[] {
  const coordinates = new Float64Array(encoded.length);
  const count = decodePathInto(encoded, coordinates, factor);
  const points = new Array<Position>(count);
  for (let i = 0; i < count; i++) points[i] = [coordinates[2 * i]!, coordinates[2 * i + 1]!];
  return points;
}

/** The encoded lines and rings of a compact geometry; none for a point or an ellipse. */
export function encodedPathsOf(compact: CompactGeometry): string[] {
  if (!('encoded' in compact)) return [];
  return compact.type === 'LineString' ? [compact.encoded] : compact.encoded;
}

/** The geometry with every coordinate on the 0.1-pixel grid the compact form keeps. */
export function roundGeometry(geometry: DrawingGeometry): DrawingGeometry {
  const round = ([x, y]: Position): Position => [toSteps(x) / FACTOR, toSteps(y) / FACTOR];
  switch (geometry.type) {
    case 'Point':
      return { type: 'Point', coordinates: round(geometry.coordinates) };
    case 'LineString':
      return { type: 'LineString', coordinates: geometry.coordinates.map(round) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: geometry.coordinates.map((ring) => ring.map(round)) };
    case 'Ellipse':
      return { type: 'Ellipse', center: round(geometry.center), radii: round(geometry.radii) };
  }
}

export function compactGeometry(geometry: DrawingGeometry): CompactGeometry {
  switch (geometry.type) {
    case 'LineString':
      return { type: 'LineString', encoded: encodePath(geometry.coordinates) };
    case 'Polygon':
      return { type: 'Polygon', encoded: geometry.coordinates.map((ring) => encodePath(ring)) };
    case 'Point':
    case 'Ellipse':
      return geometry;
  }
}

/** The full geometry; one already full (a drawing stored before the compact form existed) comes back as it is. */
export function expandGeometry(compact: CompactGeometry | DrawingGeometry): DrawingGeometry {
  if (!('encoded' in compact)) return compact;
  switch (compact.type) {
    case 'LineString':
      return { type: 'LineString', coordinates: decodePath(compact.encoded) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: compact.encoded.map((ring) => decodePath(ring)) };
  }
}
