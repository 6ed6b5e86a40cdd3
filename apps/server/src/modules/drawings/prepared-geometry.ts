import {
  compactGeometry,
  DRAWING_SHAPES,
  imageReach,
  MESSAGES,
  positionsOf,
  roundGeometry,
  shapeGeometryProblem,
  type DrawingGeometry,
  type DrawingShape,
  type ImageSize,
} from '@pathology/contract';

/**
 * A drawing's geometry as a save needs it, worked out once (on a worker thread for a big one): whether it fits each
 * shape, the box around its points and its radii for the reach check, and both stored forms as JSON text. A drawing of
 * 100,000 points is thus never walked on the event loop after its body was read.
 */
export interface PreparedGeometry {
  /** Why it cannot be drawn as each shape (shapeGeometryProblem), or null where it fits. */
  shapeProblems: Record<DrawingShape, string | null>;
  /** The smallest box around its positions (positionsOf), or null when it has none. */
  bounds: { minX: number; minY: number; maxX: number; maxY: number } | null;
  /** An ellipse's radii; none for other geometries. */
  radii: number[];
  /** The stored geometry (on the 0.1-pixel grid) and its compact form, as JSON text. */
  json: string;
  compactJson: string;
}

export function prepareGeometry(geometry: DrawingGeometry): PreparedGeometry {
  let bounds: PreparedGeometry['bounds'] = null;
  for (const [x, y] of positionsOf(geometry)) {
    if (bounds == null) bounds = { minX: x, minY: y, maxX: x, maxY: y };
    else {
      if (x < bounds.minX) bounds.minX = x;
      if (x > bounds.maxX) bounds.maxX = x;
      if (y < bounds.minY) bounds.minY = y;
      if (y > bounds.maxY) bounds.maxY = y;
    }
  }
  const rounded = roundGeometry(geometry);
  return {
    shapeProblems: Object.fromEntries(
      DRAWING_SHAPES.map((shape) => [shape, shapeGeometryProblem(shape, geometry)]),
    ) as PreparedGeometry['shapeProblems'],
    bounds,
    radii: geometry.type === 'Ellipse' ? [...geometry.radii] : [],
    json: JSON.stringify(rounded),
    compactJson: JSON.stringify(compactGeometry(rounded)),
  };
}

/**
 * geometryOutsideImageProblem from the prepared box: a position lies past the image's reach exactly when one side of
 * the box around them all does (positions are finite numbers, as the schema checked).
 */
export function preparedOutsideImageProblem(geometry: PreparedGeometry, image: ImageSize): string | null {
  const reach = imageReach(image);
  const { bounds } = geometry;
  if (
    bounds != null &&
    (bounds.minX < -reach ||
      bounds.minY < -reach ||
      bounds.maxX > image.width + reach ||
      bounds.maxY > image.height + reach)
  ) {
    return MESSAGES.drawingOutsideImage;
  }
  if (geometry.radii.some((radius) => radius > reach)) return MESSAGES.drawingOutsideImage;
  return null;
}
