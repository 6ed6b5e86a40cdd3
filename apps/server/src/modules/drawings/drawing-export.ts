import {
  measureDrawing,
  type DrawingGeometry,
  type DrawingShape,
  type DrawingStyle,
  type Measurement,
  type Position,
} from '@pathology/contract';
import { stringify } from 'csv-stringify/sync';
import { spreadsheetSafe } from '../../http/spreadsheet-safe.ts';

export interface ExportedDrawing {
  id: string;
  layerNumber: number;
  title: string;
  shapeType: string;
  visibility: string;
  geometry: unknown;
  style: unknown;
  authorName: string | null;
  createdAt: Date;
}

/** Vertices of the polygon an ellipse is written as; QuPath itself stores ellipses as polygons in GeoJSON. */
const ELLIPSE_VERTICES = 72;

function ellipseRing(center: Position, [rx, ry]: readonly [number, number]): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < ELLIPSE_VERTICES; i++) {
    const angle = (2 * Math.PI * i) / ELLIPSE_VERTICES;
    ring.push([center[0] + rx * Math.cos(angle), center[1] + ry * Math.sin(angle)]);
  }
  ring.push(ring[0]!);
  return ring;
}

/** Standard GeoJSON geometry in image pixels (y down, as QuPath expects). */
export function geoJsonGeometry(geometry: DrawingGeometry) {
  if (geometry.type !== 'Ellipse') return geometry;
  return { type: 'Polygon' as const, coordinates: [ellipseRing(geometry.center, geometry.radii)] };
}

function rgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

const SHAPE_NAMES: Record<DrawingShape, string> = {
  freehand: 'Freehand',
  line: 'Line',
  arrow: 'Arrow',
  rectangle: 'Rectangle',
  ellipse: 'Ellipse',
  polygon: 'Polygon',
  point: 'Point',
  ruler: 'Ruler',
};

/**
 * One drawing as a feature QuPath imports as an annotation (File › Import objects): objectType
 * "annotation", the title as its name, a class named after the tool in the drawing's colour.
 */
export function drawingFeature(drawing: ExportedDrawing) {
  const style = drawing.style as DrawingStyle;
  const shape = drawing.shapeType as DrawingShape;
  return {
    type: 'Feature',
    id: drawing.id,
    geometry: geoJsonGeometry(drawing.geometry as DrawingGeometry),
    properties: {
      objectType: 'annotation',
      name: drawing.title,
      classification: { name: SHAPE_NAMES[shape], color: rgb(style.lineColor) },
      isLocked: false,
      layer: drawing.layerNumber,
      visibility: drawing.visibility,
      author: drawing.authorName,
    },
  };
}

/** A FeatureCollection document, one feature after the other. */
export function* featureCollection(drawings: readonly ExportedDrawing[]): Generator<string> {
  yield '{"type":"FeatureCollection","features":[';
  for (const [index, drawing] of drawings.entries()) {
    yield (index === 0 ? '' : ',') + JSON.stringify(drawingFeature(drawing));
  }
  yield ']}\n';
}

const MEASUREMENT_COLUMNS = [
  'id',
  'layer',
  'shape',
  'title',
  'visibility',
  'author',
  'length_um',
  'perimeter_um',
  'area_um2',
  'length_px',
  'perimeter_px',
  'area_px2',
  'created_at',
];

/** The total and per-class counts of a drawing, empty for a drawing without an inside. */
function detectionCells(detections: DrawingDetections, drawingId: string): (number | string)[] {
  if (detections.classNames.length === 0) return [];
  const counts = detections.counts.get(drawingId);
  if (counts === undefined) return detections.classNames.map(() => '').concat('');
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  return [total, ...detections.classNames.map((name) => counts.get(name) ?? 0)];
}

const rounded = (value: number | undefined, digits: number) => (value === undefined ? '' : value.toFixed(digits));

/** Detections inside each drawing (by id), per class name, and the classes met on the image's layers. */
export interface DrawingDetections {
  classNames: readonly string[];
  counts: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

const NO_DETECTIONS: DrawingDetections = { classNames: [], counts: new Map() };

/**
 * The measurements CSV of one image: µm columns stay empty when the image has no valid resolution. Where the image
 * has detections, `detections` and one `detections: <class>` column per class count those inside each area drawing.
 */
export function measurementsCsv(
  drawings: readonly ExportedDrawing[],
  micronsPerPixel: { x: number; y: number } | undefined,
  detections: DrawingDetections = NO_DETECTIONS,
): string {
  const rows = drawings.map((drawing) => {
    const geometry = drawing.geometry as DrawingGeometry;
    const pixels = measureDrawing(geometry, undefined);
    const microns: Measurement = micronsPerPixel ? measureDrawing(geometry, micronsPerPixel) : { unit: 'µm' };
    return [
      drawing.id,
      drawing.layerNumber,
      drawing.shapeType,
      spreadsheetSafe(drawing.title),
      drawing.visibility,
      spreadsheetSafe(drawing.authorName ?? ''),
      rounded(microns.length, 2),
      rounded(microns.perimeter, 2),
      rounded(microns.area, 2),
      rounded(pixels.length, 1),
      rounded(pixels.perimeter, 1),
      rounded(pixels.area, 1),
      drawing.createdAt.toISOString(),
      ...detectionCells(detections, drawing.id),
    ];
  });
  const columns = [
    ...MEASUREMENT_COLUMNS,
    ...(detections.classNames.length === 0
      ? []
      : ['detections', ...detections.classNames.map((name) => spreadsheetSafe(`detections: ${name}`))]),
  ];
  // BOM: spreadsheet programs then read the titles' Japanese as UTF-8.
  return '\uFEFF' + stringify(rows, { header: true, columns });
}
