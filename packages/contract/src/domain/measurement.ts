import type { DrawingGeometry, Position } from './drawings.ts';
import type { ResolutionUnit } from './images.ts';

export interface Resolution {
  x: number;
  y: number;
  unit: ResolutionUnit;
}

/** A resolution of exactly 10 dots per centimetre is a placeholder some scanners write: read it as 22620 dpc. */
const PLACEHOLDER_DPC = 10;
const PLACEHOLDER_REPLACEMENT_DPC = 22620;
/** Anything at or below this many dots per centimetre is no microscope scan (part 2 §9). */
const MIN_VALID_DPC = 5000;
const MICRONS_PER_CENTIMETRE = 10_000;

function validDpc(value: number, unit: ResolutionUnit): number | undefined {
  const dpc = unit === 'dpi' ? value / 2.54 : value;
  if (dpc === PLACEHOLDER_DPC) return PLACEHOLDER_REPLACEMENT_DPC;
  return dpc > MIN_VALID_DPC ? dpc : undefined;
}

/** Dots per centimetre of the horizontal resolution, when it is valid (part 2 §9); undefined otherwise. */
export function validDotsPerCentimetre(resolution: Resolution | null | undefined): number | undefined {
  return resolution ? validDpc(resolution.x, resolution.unit) : undefined;
}

/** Micrometres covered by one full-resolution image pixel; undefined when the resolution is not valid (no scale bar). */
export function micronsPerImagePixel(resolution: Resolution | null | undefined): number | undefined {
  const dpc = validDotsPerCentimetre(resolution);
  return dpc === undefined ? undefined : MICRONS_PER_CENTIMETRE / dpc;
}

/** Micrometres per pixel along each axis; a vertical resolution that is not valid borrows the horizontal one. */
export function micronsPerPixelXY(resolution: Resolution | null | undefined): { x: number; y: number } | undefined {
  const x = micronsPerImagePixel(resolution);
  if (x === undefined || resolution == null) return undefined;
  const dpcY = validDpc(resolution.y, resolution.unit);
  return { x, y: dpcY === undefined ? x : MICRONS_PER_CENTIMETRE / dpcY };
}

/**
 * What a drawing measures. In µm and µm² when the image has a valid resolution, else in image pixels
 * (part 2 §9: no valid resolution, no physical scale).
 */
export interface Measurement {
  unit: 'µm' | 'px';
  length?: number;
  perimeter?: number;
  area?: number;
}

type Scale = { x: number; y: number };

const distance = (a: Position, b: Position, s: Scale) => Math.hypot((b[0] - a[0]) * s.x, (b[1] - a[1]) * s.y);

function pathLength(points: readonly Position[], s: Scale): number {
  let total = 0;
  for (let i = 1; i < points.length; i++) total += distance(points[i - 1]!, points[i]!, s);
  return total;
}

/** Shoelace formula: the unsigned area of a closed ring. */
function ringArea(ring: readonly Position[], s: Scale): number {
  let twice = 0;
  for (let i = 1; i < ring.length; i++) {
    const [x0, y0] = ring[i - 1]!;
    const [x1, y1] = ring[i]!;
    twice += x0 * y1 - x1 * y0;
  }
  return (Math.abs(twice) / 2) * s.x * s.y;
}

/** Ramanujan's second approximation; exact for a circle, within 0.04 % for an ellipse of axis ratio 1:10. */
function ellipsePerimeter(a: number, b: number): number {
  if (a + b === 0) return 0;
  const h = ((a - b) / (a + b)) ** 2;
  return Math.PI * (a + b) * (1 + (3 * h) / (10 + Math.sqrt(4 - 3 * h)));
}

/** Length of lines, perimeter and area of closed shapes (holes subtracted), nothing for a point. */
export function measureDrawing(geometry: DrawingGeometry, micronsPerPixel: Scale | undefined): Measurement {
  const unit = micronsPerPixel ? 'µm' : 'px';
  const s = micronsPerPixel ?? { x: 1, y: 1 };
  switch (geometry.type) {
    case 'Point':
      return { unit };
    case 'LineString':
      return { unit, length: pathLength(geometry.coordinates, s) };
    case 'Polygon': {
      const [outline, ...holes] = geometry.coordinates;
      const area = ringArea(outline!, s) - holes.reduce((sum, hole) => sum + ringArea(hole, s), 0);
      const perimeter = geometry.coordinates.reduce((sum, ring) => sum + pathLength(ring, s), 0);
      return { unit, perimeter, area: Math.max(0, area) };
    }
    case 'Ellipse': {
      const a = geometry.radii[0] * s.x;
      const b = geometry.radii[1] * s.y;
      return { unit, perimeter: ellipsePerimeter(a, b), area: Math.PI * a * b };
    }
  }
}

const clean = (value: number, digits: number) =>
  Number(value.toFixed(digits)).toLocaleString('en', { maximumFractionDigits: digits });

/** '850.3 µm', '1.25 mm', '120 px'. */
export function formatLength(value: number, unit: Measurement['unit']): string {
  if (unit === 'px') return `${clean(value, 0)} px`;
  return value >= 1000 ? `${clean(value / 1000, 2)} mm` : `${clean(value, 1)} µm`;
}

/** '5,300 µm²', '1.25 mm²', '1,200 px²'. */
export function formatArea(value: number, unit: Measurement['unit']): string {
  if (unit === 'px') return `${clean(value, 0)} px²`;
  return value >= 1_000_000 ? `${clean(value / 1_000_000, 3)} mm²` : `${clean(value, 0)} µm²`;
}

/** The text shown next to a drawing: its length, or its area (A) and perimeter (P). */
export function measurementText(measurement: Measurement): string {
  const parts: string[] = [];
  if (measurement.length !== undefined) parts.push(formatLength(measurement.length, measurement.unit));
  if (measurement.area !== undefined) parts.push(`A ${formatArea(measurement.area, measurement.unit)}`);
  if (measurement.perimeter !== undefined) parts.push(`P ${formatLength(measurement.perimeter, measurement.unit)}`);
  return parts.join(' · ');
}
