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

/**
 * Each object as the ellipse inscribed in its box, one RGBA picture of a tile: for middle views, where an object is
 * a few pixels across and its outline would look the same. Written straight into the pixels, as a vector renderer
 * spends most of its time per shape on such specks (objects of hidden classes have no colour and are left out).
 */
export function markPixels(
  boxes: readonly MarkBox[],
  tile: { region: Region; scale: number; pixelWidth: number; pixelHeight: number },
  colors: ReadonlyMap<number, string>,
  opacity: number,
): Uint8Array {
  const { region, scale, pixelWidth, pixelHeight } = tile;
  const pixels = new Uint8Array(pixelWidth * pixelHeight * 4);
  const rgb = new Map([...colors].map(([index, color]) => [index, channels(color)]));
  const alpha = Math.round(255 * opacity);
  for (const box of boxes) {
    const color = rgb.get(box.classIndex);
    if (color === undefined) continue;
    const cx = ((box.minX + box.maxX) / 2 - region.x) * scale;
    const cy = ((box.minY + box.maxY) / 2 - region.y) * scale;
    const rx = Math.max(MIN_MARK_PIXELS, (box.maxX - box.minX) * scale) / 2;
    const ry = Math.max(MIN_MARK_PIXELS, (box.maxY - box.minY) * scale) / 2;
    const [top, bottom] = [Math.max(0, Math.floor(cy - ry)), Math.min(pixelHeight - 1, Math.ceil(cy + ry) - 1)];
    for (let y = top; y <= bottom; y += 1) {
      // Pixel centres inside the ellipse on this row; a row through the ellipse's very top keeps its middle pixel.
      const dy = (y + 0.5 - cy) / ry;
      const half = rx * Math.sqrt(Math.max(0, 1 - dy * dy));
      const left = Math.max(0, Math.min(Math.round(cx - half), Math.floor(cx)));
      const right = Math.min(pixelWidth - 1, Math.max(Math.round(cx + half) - 1, Math.floor(cx)));
      for (let x = left; x <= right; x += 1) {
        const at = (y * pixelWidth + x) * 4;
        pixels[at] = color[0];
        pixels[at + 1] = color[1];
        pixels[at + 2] = color[2];
        pixels[at + 3] = alpha;
      }
    }
  }
  return pixels;
}
