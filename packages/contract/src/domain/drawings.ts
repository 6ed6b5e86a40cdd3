import { z } from 'zod';

/** Visibility of drawings and image notes: private ones are seen by their author only. */
export const DRAWING_VISIBILITIES = ['private', 'public'] as const;
export const DrawingVisibilitySchema = z.enum(DRAWING_VISIBILITIES);
export type DrawingVisibility = z.infer<typeof DrawingVisibilitySchema>;

/** The path segment of GET images/{id}/layers/{layerId}/visibility/{filter}/drawings (part 2 §7). */
export const DRAWING_VISIBILITY_FILTERS = ['ALL', 'PRIVATE', 'PUBLIC'] as const;
export const DrawingVisibilityFilterSchema = z.enum(DRAWING_VISIBILITY_FILTERS);
export type DrawingVisibilityFilter = z.infer<typeof DrawingVisibilityFilterSchema>;

/** The viewer's drawing tools; each keeps one geometry type (see DRAWING_GEOMETRY_OF_SHAPE). */
export const DRAWING_SHAPES = [
  'freehand',
  'line',
  'arrow',
  'rectangle',
  'ellipse',
  'polygon',
  'point',
  'ruler',
] as const;
export const DrawingShapeSchema = z.enum(DRAWING_SHAPES);
export type DrawingShape = z.infer<typeof DrawingShapeSchema>;

/** A drawing bigger than this is not a hand-made annotation; it would also stall every viewer that loads it. */
export const MAX_DRAWING_VERTICES = 100_000;
export const MAX_DRAWING_TITLE_LENGTH = 200;
export const MAX_DRAWING_LINE_WIDTH = 20;
/** Part 2 §3 defaults: line width 2, grey. */
export const DEFAULT_DRAWING_LINE_WIDTH = 2;
export const DEFAULT_DRAWING_LINE_COLOR = '#868e96';

export const DRAWING_MESSAGES = {
  /** 403 when the owner group has drawing creation denied (part 2 §4 "Drawing availability"). */
  creationDenied: 'Drawing is not available for this group.',
  ringNotClosed: 'A polygon ring must end at the point where it starts',
  ringTooShort: 'A polygon ring needs at least 3 distinct points',
  tooManyVertices: `A drawing can have at most ${MAX_DRAWING_VERTICES.toLocaleString('en')} points`,
  coordinateNotFinite: 'Coordinates must be finite numbers',
  wrongGeometry: 'This geometry does not fit the shape',
  twoPoints: 'This shape needs exactly two points',
  alreadyExists: 'A drawing with this id already exists',
  downloadNotFound: 'Drawings data does not exist.',
  downloadFailed: 'Failed to download Image drawings.',
  downloadSucceeded: 'Image drawings downloaded successfully.',
  lineColorInvalid: 'Use a colour such as #868e96',
} as const;

/** x, y in full-resolution image pixels. */
export const PositionSchema = z.tuple([
  z.number({ error: DRAWING_MESSAGES.coordinateNotFinite }),
  z.number({ error: DRAWING_MESSAGES.coordinateNotFinite }),
]);
export type Position = z.infer<typeof PositionSchema>;

const samePosition = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];

function isPositionList(value: unknown): value is Position[] {
  if (!Array.isArray(value)) return false;
  for (const position of value as unknown[]) {
    if (!Array.isArray(position) || position.length !== 2) return false;
    if (!Number.isFinite(position[0]) || !Number.isFinite(position[1])) return false;
  }
  return true;
}

/**
 * A list of positions, checked in one loop: a drawing may have 100,000 of them, which zod's tuple per position took
 * half a second to check on the event loop (issue 46). Its JSON Schema is what `z.array(PositionSchema)` gave.
 */
const positionList = (min: number, tooShort?: string) =>
  z
    .custom<Position[]>(isPositionList, { error: DRAWING_MESSAGES.coordinateNotFinite })
    .check(z.minLength(min, tooShort))
    .meta({
      type: 'array',
      minItems: min,
      items: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2, maxItems: 2 },
    });

/** A closed ring as GeoJSON has it: at least four positions, the last equal to the first. */
export const RingSchema = positionList(4, DRAWING_MESSAGES.ringTooShort).refine(
  (ring) => samePosition(ring[0]!, ring.at(-1)!),
  DRAWING_MESSAGES.ringNotClosed,
);

export const PointGeometrySchema = z.object({ type: z.literal('Point'), coordinates: PositionSchema });
export const LineStringGeometrySchema = z.object({
  type: z.literal('LineString'),
  coordinates: positionList(2),
});
/** The first ring is the outline, any further ones are holes (GeoJSON). */
export const PolygonGeometrySchema = z.object({ type: z.literal('Polygon'), coordinates: z.array(RingSchema).min(1) });
/** GeoJSON has no ellipse: kept exact here and written as a polygon on export. */
export const EllipseGeometrySchema = z.object({
  type: z.literal('Ellipse'),
  center: PositionSchema,
  radii: z.tuple([z.number().nonnegative(), z.number().nonnegative()]),
});

export const DrawingGeometrySchema = z.discriminatedUnion('type', [
  PointGeometrySchema,
  LineStringGeometrySchema,
  PolygonGeometrySchema,
  EllipseGeometrySchema,
]);
export type DrawingGeometry = z.infer<typeof DrawingGeometrySchema>;
export type PolygonGeometry = z.infer<typeof PolygonGeometrySchema>;
export type LineStringGeometry = z.infer<typeof LineStringGeometrySchema>;
export type EllipseGeometry = z.infer<typeof EllipseGeometrySchema>;

export const DRAWING_GEOMETRY_OF_SHAPE: Record<DrawingShape, readonly DrawingGeometry['type'][]> = {
  freehand: ['LineString', 'Polygon'],
  line: ['LineString'],
  arrow: ['LineString'],
  ruler: ['LineString'],
  rectangle: ['Polygon'],
  polygon: ['Polygon'],
  ellipse: ['Ellipse'],
  point: ['Point'],
};

/** Shapes drawn from one point to another. */
export const TWO_POINT_SHAPES: readonly DrawingShape[] = ['line', 'arrow', 'ruler'];

/** Every position of a geometry, in order (an ellipse counts as its centre). */
export function positionsOf(geometry: DrawingGeometry): Position[] {
  switch (geometry.type) {
    case 'Point':
      return [geometry.coordinates];
    case 'LineString':
      return geometry.coordinates;
    case 'Polygon':
      return geometry.coordinates.flat();
    case 'Ellipse':
      return [geometry.center];
  }
}

export const DrawingStyleSchema = z.object({
  lineWidth: z.number().int().min(1).max(MAX_DRAWING_LINE_WIDTH).default(DEFAULT_DRAWING_LINE_WIDTH),
  lineColor: z
    .string()
    .regex(/^#[0-9a-f]{6}$/i, DRAWING_MESSAGES.lineColorInvalid)
    .default(DEFAULT_DRAWING_LINE_COLOR),
});
export type DrawingStyle = z.infer<typeof DrawingStyleSchema>;
