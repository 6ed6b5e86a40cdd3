import { contours } from 'd3-contour';

/** How a model with object output turns its probability maps into objects (the manifest's `objects`). */
export interface ObjectOutput {
  /** Probability (0–1) from which a pixel belongs to an object of its label. */
  threshold: number;
  /** Regions of fewer pixels (of the model's input) are noise, not objects. */
  minPixels: number;
}

export interface CellPlacement {
  /** Full-resolution pixel of the cell's top-left corner. */
  x: number;
  y: number;
  /** Full-resolution pixels per pixel of the model's input. */
  scale: number;
  /** The image's size: objects are clipped to it (cells past the edge are padded). */
  width: number;
  height: number;
}

export interface ObjectLabel {
  name: string;
  /** `#rrggbb`, or undefined to let the layer pick one. */
  color: string | undefined;
}

type Ring = [number, number][];

/** Shoelace area of a closed ring, in squared units of its coordinates. */
function ringArea(ring: readonly (readonly number[])[]): number {
  let twice = 0;
  for (let i = 1; i < ring.length; i++) {
    const [x0, y0] = ring[i - 1]!;
    const [x1, y1] = ring[i]!;
    twice += x0! * y1! - x1! * y0!;
  }
  return Math.abs(twice) / 2;
}

/**
 * The objects of one cell as QuPath-style GeoJSON detections: for each label's probability map (size × size,
 * row-major), its connected regions at `threshold` traced by marching squares, placed in full-resolution image
 * pixels. Also the highest probability of each label in the cell, which the prediction's grid records.
 */
export function cellObjects(
  maps: Float32Array,
  size: number,
  labels: readonly ObjectLabel[],
  output: ObjectOutput,
  cell: CellPlacement,
): { features: object[]; peaks: number[] } {
  const plane = size * size;
  const trace = contours().size([size, size]).thresholds([output.threshold]);
  const place = (ring: number[][]): Ring =>
    ring.map(([x, y]) => [
      Math.min(cell.width, cell.x + x! * cell.scale),
      Math.min(cell.height, cell.y + y! * cell.scale),
    ]);
  const features: object[] = [];
  const peaks = labels.map((label, index) => {
    const map = maps.subarray(index * plane, (index + 1) * plane);
    let peak = 0;
    for (const value of map) peak = Math.max(peak, value);
    if (peak < output.threshold) return peak;
    for (const polygon of trace.contour(map as unknown as number[], output.threshold).coordinates) {
      const area = ringArea(polygon[0]!);
      if (area < output.minPixels) continue;
      features.push({
        type: 'Feature',
        geometry: { type: 'Polygon', coordinates: polygon.map(place) },
        properties: {
          objectType: 'detection',
          classification: label.color === undefined ? { name: label.name } : { name: label.name, color: label.color },
          measurements: { 'Area px^2': Math.round(area * cell.scale * cell.scale) },
        },
      });
    }
    return peak;
  });
  return { features, peaks };
}
