import { z } from 'zod';
import { maxLengthMessage } from './cases.ts';
import { MESSAGES } from './errors.ts';
import {
  DEFAULT_DRAWING_LINE_COLOR,
  DEFAULT_DRAWING_LINE_WIDTH,
  DRAWING_GEOMETRY_OF_SHAPE,
  DRAWING_MESSAGES,
  DrawingGeometrySchema,
  DrawingShapeSchema,
  DrawingStyleSchema,
  DrawingVisibilitySchema,
  EllipseGeometrySchema,
  MAX_DRAWING_TITLE_LENGTH,
  PointGeometrySchema,
  MAX_DRAWING_VERTICES,
  TWO_POINT_SHAPES,
  positionsOf,
  type DrawingGeometry,
  type DrawingShape,
} from '../domain/drawings.ts';
import { beyondImageReach, imageReach, type ImageSize } from '../domain/image-reach.ts';

export const DrawingTitleSchema = z
  .string()
  .trim()
  .max(MAX_DRAWING_TITLE_LENGTH, maxLengthMessage(MAX_DRAWING_TITLE_LENGTH));

/** Why this geometry cannot be drawn with this shape, or null when it fits. */
export function shapeGeometryProblem(shape: DrawingShape, geometry: DrawingGeometry): string | null {
  if (!DRAWING_GEOMETRY_OF_SHAPE[shape].includes(geometry.type)) return DRAWING_MESSAGES.wrongGeometry;
  if (TWO_POINT_SHAPES.includes(shape) && geometry.type === 'LineString' && geometry.coordinates.length !== 2) {
    return DRAWING_MESSAGES.twoPoints;
  }
  if (positionsOf(geometry).length > MAX_DRAWING_VERTICES) return DRAWING_MESSAGES.tooManyVertices;
  return null;
}

/**
 * Why a geometry lies too far outside an image of this size to be a drawing on it, or null when it does not: its
 * points must lie within the image's reach (its larger side) of its edges, and an ellipse's radii be no longer.
 */
export function geometryOutsideImageProblem(geometry: DrawingGeometry, image: ImageSize): string | null {
  if (positionsOf(geometry).some((position) => beyondImageReach(position, image))) {
    return MESSAGES.drawingOutsideImage;
  }
  if (geometry.type === 'Ellipse' && geometry.radii.some((radius) => radius > imageReach(image))) {
    return MESSAGES.drawingOutsideImage;
  }
  return null;
}

/** Positions in a `coordinates` value: one position, a list of positions, or a list of rings. */
function countPositions(coordinates: unknown): number {
  if (!Array.isArray(coordinates)) return 0;
  return (coordinates as unknown[]).reduce<number>((sum, item) => {
    const inner = Array.isArray(item) ? (item as unknown[]) : [];
    return sum + (Array.isArray(inner[0]) ? inner.length : 1);
  }, 0);
}

/** A geometry checked before zod walks every position, so 10 million points fail fast with the clear message. */
const BoundedGeometrySchema = z
  .unknown()
  .superRefine((value, context) => {
    const coordinates = (value as { coordinates?: unknown } | null)?.coordinates;
    if (countPositions(coordinates) > MAX_DRAWING_VERTICES) {
      context.addIssue({ code: 'custom', message: DRAWING_MESSAGES.tooManyVertices, fatal: true });
    }
  })
  .pipe(DrawingGeometrySchema);

export const CreateDrawingRequestSchema = z
  .object({
    /** Made by the client, so a drawing keeps its id through undo and redo before and after saving. */
    id: z.uuid().optional(),
    shapeType: DrawingShapeSchema,
    geometry: BoundedGeometrySchema,
    title: DrawingTitleSchema.default(''),
    visibility: DrawingVisibilitySchema.default('public'),
    style: DrawingStyleSchema.default({ lineWidth: DEFAULT_DRAWING_LINE_WIDTH, lineColor: DEFAULT_DRAWING_LINE_COLOR }),
  })
  .superRefine((drawing, context) => {
    const problem = shapeGeometryProblem(drawing.shapeType, drawing.geometry);
    if (problem != null) context.addIssue({ code: 'custom', path: ['geometry'], message: problem });
  });
export type CreateDrawingRequest = z.input<typeof CreateDrawingRequestSchema>;

/** PATCH (merge-patch): any of the fields; a new geometry is checked against the drawing's shape on the server. */
export const UpdateDrawingRequestSchema = z.object({
  geometry: BoundedGeometrySchema.optional(),
  title: DrawingTitleSchema.optional(),
  visibility: DrawingVisibilitySchema.optional(),
  style: DrawingStyleSchema.partial().optional(),
});
export type UpdateDrawingRequest = z.input<typeof UpdateDrawingRequestSchema>;

export const DrawingSchema = z.object({
  id: z.uuid(),
  imageId: z.uuid(),
  imageLayerId: z.uuid(),
  /** Null once the author's account is gone; the drawing stays. */
  authorAccountId: z.uuid().nullable(),
  authorName: z.string().nullable(),
  visibility: DrawingVisibilitySchema,
  title: z.string(),
  shapeType: DrawingShapeSchema,
  geometry: DrawingGeometrySchema,
  style: DrawingStyleSchema,
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  /** Whether the caller may change or delete it: its author, or for a public drawing someone who may edit the case. */
  editable: z.boolean(),
});
export type Drawing = z.infer<typeof DrawingSchema>;

export const CompactGeometrySchema = z.union([
  PointGeometrySchema,
  EllipseGeometrySchema,
  z.object({ type: z.literal('LineString'), encoded: z.string() }),
  z.object({ type: z.literal('Polygon'), encoded: z.array(z.string()) }),
]);

/** A drawing in a layer list: lines and rings as encoded polylines (see compact-geometry.ts), a quarter of the bytes. */
export const CompactDrawingSchema = DrawingSchema.extend({ geometry: CompactGeometrySchema });
export type CompactDrawing = z.infer<typeof CompactDrawingSchema>;

/** The drawings of one layer, streamed in one response. */
export const DrawingListSchema = z.object({ data: z.array(CompactDrawingSchema) });
export type DrawingList = z.infer<typeof DrawingListSchema>;

/** POST drawings/download: a zip with a GeoJSON and a measurements CSV per image. */
export const DownloadDrawingsRequestSchema = z.object({ imageIds: z.array(z.uuid()).min(1).max(1000) });
export type DownloadDrawingsRequest = z.infer<typeof DownloadDrawingsRequestSchema>;
