import { DETECTION_MESSAGES, MAX_DETECTION_VERTICES, UNCLASSIFIED_DETECTION } from '@pathology/contract';

/** One imported detection, ready for storage. */
export interface ParsedDetection {
  className: string;
  /** `#rrggbb`, or undefined when the file gives none (a palette colour is chosen per class then). */
  color: string | undefined;
  /** [minX, minY, maxX, maxY] in image pixels. */
  bbox: [number, number, number, number];
  /** The GeoJSON geometry, coordinates rounded to 0.1 pixel. */
  geometry: string;
  /** The measurements as JSON text, or null. */
  measurements: string | null;
  /** Positions of all its rings. */
  vertices: number;
}

interface ImageSize {
  width: number;
  height: number;
}

type Ring = [number, number][];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const round = (value: number) => Math.round(value * 10) / 10;

/** A closed ring of at least 4 finite [x, y] positions, rounded; undefined otherwise. */
function ringOf(value: unknown): Ring | undefined {
  if (!Array.isArray(value) || value.length < 4) return undefined;
  const ring: Ring = [];
  for (const position of value) {
    if (!Array.isArray(position) || position.length < 2) return undefined;
    const [x, y] = position as unknown[];
    if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) return undefined;
    ring.push([round(x), round(y)]);
  }
  const [first, last] = [ring[0]!, ring.at(-1)!];
  return first[0] === last[0] && first[1] === last[1] ? ring : undefined;
}

function polygonOf(value: unknown): Ring[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const rings = value.map(ringOf);
  return rings.every((ring) => ring !== undefined) ? rings : undefined;
}

/** The polygons of a Polygon or MultiPolygon geometry, or undefined for anything else. */
function polygonsOf(geometry: unknown): Ring[][] | undefined {
  if (!isObject(geometry)) return undefined;
  if (geometry.type === 'Polygon') {
    const polygon = polygonOf(geometry.coordinates);
    return polygon && [polygon];
  }
  if (geometry.type === 'MultiPolygon' && Array.isArray(geometry.coordinates) && geometry.coordinates.length > 0) {
    const polygons = geometry.coordinates.map(polygonOf);
    return polygons.every((polygon) => polygon !== undefined) ? polygons : undefined;
  }
  return undefined;
}

/** Positions in a Polygon's or MultiPolygon's rings, counted before any is read (0 for another shape). */
function positionCount(geometry: unknown): number {
  if (!isObject(geometry) || !Array.isArray(geometry.coordinates)) return 0;
  const polygons: unknown[] = geometry.type === 'MultiPolygon' ? geometry.coordinates : [geometry.coordinates];
  let count = 0;
  for (const rings of polygons) {
    if (!Array.isArray(rings)) continue;
    for (const ring of rings) count += Array.isArray(ring) ? ring.length : 0;
  }
  return count;
}

const hex = (channel: unknown) =>
  typeof channel === 'number' && channel >= 0 && channel <= 255
    ? Math.round(channel).toString(16).padStart(2, '0')
    : '';

/** `#rrggbb` from QuPath's `[r, g, b]` or packed integer, or HistomicsTK's `rgb(r, g, b)`. */
export function colorOf(value: unknown): string | undefined {
  let channels: unknown[] | undefined;
  if (Array.isArray(value)) channels = value.slice(0, 3);
  else if (typeof value === 'number' && Number.isInteger(value)) {
    channels = [(value >> 16) & 255, (value >> 8) & 255, value & 255];
  } else if (typeof value === 'string') {
    const match = /^rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)/.exec(value);
    if (match) channels = match.slice(1, 4).map(Number);
    else if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  }
  const text = channels?.map(hex).join('');
  return text?.length === 6 ? `#${text}` : undefined;
}

/** QuPath's `classification` ({ name, color | colorRGB }) or HistomicsTK's `group` / `label.value` with `lineColor`. */
function classificationOf(properties: Record<string, unknown>): { name: string; color: string | undefined } | string {
  const { classification } = properties;
  if (isObject(classification)) {
    const { name } = classification;
    if (typeof name !== 'string' || name.trim() === '') return DETECTION_MESSAGES.badClassification;
    return { name: name.trim(), color: colorOf(classification.color ?? classification.colorRGB) };
  }
  const label = isObject(properties.label) ? properties.label.value : properties.group;
  const name = typeof label === 'string' && label.trim() !== '' ? label.trim() : UNCLASSIFIED_DETECTION;
  return { name, color: colorOf(properties.lineColor ?? properties.fillColor) };
}

function measurementsOf(properties: Record<string, unknown>): string | null {
  const { measurements } = properties;
  return isObject(measurements) || Array.isArray(measurements) ? JSON.stringify(measurements) : null;
}

/**
 * Reads one GeoJSON feature as QuPath (detections and cells) or HistomicsTK export it: a Polygon or MultiPolygon in
 * image pixels inside the image, of at most MAX_DETECTION_VERTICES positions, a class and its colour, measurements. Returns the reason as text when it is not one.
 */
export function parseDetectionFeature(feature: unknown, size: ImageSize): ParsedDetection | string {
  if (!isObject(feature) || feature.type !== 'Feature') return DETECTION_MESSAGES.notFeature;
  const vertices = positionCount(feature.geometry);
  if (vertices > MAX_DETECTION_VERTICES) return DETECTION_MESSAGES.featureTooManyVertices;
  const polygons = polygonsOf(feature.geometry);
  if (polygons === undefined) return DETECTION_MESSAGES.badGeometry;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const polygon of polygons) {
    for (const [x, y] of polygon[0]!) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  }
  if (minX < 0 || minY < 0 || maxX > size.width || maxY > size.height) return DETECTION_MESSAGES.outsideImage;
  const properties = isObject(feature.properties) ? feature.properties : {};
  const classification = classificationOf(properties);
  if (typeof classification === 'string') return classification;
  const geometry =
    polygons.length === 1
      ? { type: 'Polygon', coordinates: polygons[0] }
      : { type: 'MultiPolygon', coordinates: polygons };
  return {
    className: classification.name,
    color: classification.color,
    bbox: [minX, minY, maxX, maxY],
    geometry: JSON.stringify(geometry),
    measurements: measurementsOf(properties),
    vertices,
  };
}
