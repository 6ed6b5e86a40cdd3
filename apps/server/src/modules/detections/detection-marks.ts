import { channels, type Region } from './detection-grid.ts';

/** An object's box in image pixels and its class. A type, not an interface: rows of db.execute must be records. */
export type MarkBox = {
  classIndex: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
};

/** A mark is at least this many tile pixels across, so a far view still shows every object. */
const MIN_MARK_PIXELS = 1.5;

/** The first and last pixel column whose centre lies in the ellipse on a row; a row through its very top keeps its middle. */
function spanOf(cx: number, cy: number, rx: number, ry: number, y: number): [number, number] {
  const dy = (y + 0.5 - cy) / ry;
  const half = rx * Math.sqrt(Math.max(0, 1 - dy * dy));
  return [Math.min(Math.round(cx - half), Math.floor(cx)), Math.max(Math.round(cx + half) - 1, Math.floor(cx))];
}

/** Opacity of a mark's edge: its line painted over its fill, as an outline's stroke lies over its fill. */
const edgeOpacity = (style: MarkStyle) => style.line + style.fill * (1 - style.line);

export interface MarkStyle {
  fill: number;
  line: number;
}

/**
 * Each object as the ellipse inscribed in its box, one RGBA picture of a tile: for middle views, and for views where
 * an object is a speck of a few pixels (its outline would look the same), filled at the fill's opacity and edged at
 * the line's as an outline is. Written straight into the pixels, as a vector renderer spends most of its time per
 * shape on such specks (objects of hidden classes have no colour and are left out).
 */
export function markPixels(
  boxes: readonly MarkBox[],
  tile: { region: Region; scale: number; pixelWidth: number; pixelHeight: number },
  colors: ReadonlyMap<number, string>,
  style: MarkStyle,
): Uint8Array {
  const { region, scale, pixelWidth, pixelHeight } = tile;
  const pixels = new Uint8Array(pixelWidth * pixelHeight * 4);
  const rgb = new Map([...colors].map(([index, color]) => [index, channels(color)]));
  const [inside, edge] = [Math.round(255 * style.fill), Math.round(255 * edgeOpacity(style))];
  for (const box of boxes) {
    const color = rgb.get(box.classIndex);
    if (color === undefined) continue;
    const cx = ((box.minX + box.maxX) / 2 - region.x) * scale;
    const cy = ((box.minY + box.maxY) / 2 - region.y) * scale;
    const rx = Math.max(MIN_MARK_PIXELS, (box.maxX - box.minX) * scale) / 2;
    const ry = Math.max(MIN_MARK_PIXELS, (box.maxY - box.minY) * scale) / 2;
    const [top, bottom] = [Math.floor(cy - ry), Math.ceil(cy + ry) - 1];
    // A pixel is on the edge where a neighbour above or below lies outside (the rows beyond the ends are empty):
    // each row's span is worked out once and carried to the next row as the one above it.
    const spanAt = (y: number): [number, number] =>
      y < top || y > bottom ? [Infinity, -Infinity] : spanOf(cx, cy, rx, ry, y);
    const first = Math.max(0, top);
    let [aboveLeft, aboveRight] = spanAt(first - 1);
    let [left, right] = spanAt(first);
    for (let y = first; y <= Math.min(pixelHeight - 1, bottom); y += 1) {
      const [belowLeft, belowRight] = spanAt(y + 1);
      for (let x = Math.max(0, left); x <= Math.min(pixelWidth - 1, right); x += 1) {
        const onEdge = x === left || x === right || x < aboveLeft || x > aboveRight || x < belowLeft || x > belowRight;
        const at = (y * pixelWidth + x) * 4;
        pixels[at] = color[0];
        pixels[at + 1] = color[1];
        pixels[at + 2] = color[2];
        pixels[at + 3] = onEdge ? edge : inside;
      }
      [aboveLeft, aboveRight, left, right] = [left, right, belowLeft, belowRight];
    }
  }
  return pixels;
}
