import { describe, expect, it } from 'vitest';
import { markPixels } from './detection-marks.ts';

describe('detection marks', () => {
  const tile = {
    region: { x: 1000, y: 2000, width: 400, height: 400 },
    scale: 1 / 4,
    pixelWidth: 100,
    pixelHeight: 100,
  };
  const colors = new Map([
    [0, '#ff0000'],
    [1, '#0000ff'],
  ]);
  const alphaAt = (pixels: Uint8Array, x: number, y: number) => pixels[(y * 100 + x) * 4 + 3]!;
  const painted = (pixels: Uint8Array) => pixels.filter((_, at) => at % 4 === 3 && pixels[at]! > 0).length;

  it('draws each object as the ellipse in its box, in its class colour, at the given opacity', () => {
    // A 40 × 20 pixel box becomes a 10 × 5 ellipse at a quarter scale, centred on tile pixel (50, 30).
    const pixels = markPixels([{ classIndex: 0, minX: 1180, minY: 2110, maxX: 1220, maxY: 2130 }], tile, colors, 0.5);
    expect([...pixels.subarray((30 * 100 + 50) * 4, (30 * 100 + 50) * 4 + 4)]).toEqual([255, 0, 0, 128]);
    expect(painted(pixels)).toBeGreaterThan(0.8 * Math.PI * 5 * 2.5);
    expect(painted(pixels)).toBeLessThan(1.2 * Math.PI * 5 * 2.5);
    // The box's corners lie outside the ellipse.
    expect(alphaAt(pixels, 45, 28)).toBe(0);
    expect(alphaAt(pixels, 54, 32)).toBe(0);
  });

  it('keeps specks visible, clips at the tile edges and leaves classes without a colour out', () => {
    const pixels = markPixels(
      [
        // Half a pixel across at this scale: still one pixel.
        { classIndex: 1, minX: 1040, minY: 2040, maxX: 1042, maxY: 2042 },
        // Across the tile's left edge.
        { classIndex: 0, minX: 980, minY: 2200, maxX: 1020, maxY: 2240 },
        // A hidden class.
        { classIndex: 2, minX: 1300, minY: 2300, maxX: 1340, maxY: 2340 },
      ],
      tile,
      colors,
      1,
    );
    expect([...pixels.subarray((10 * 100 + 10) * 4, (10 * 100 + 10) * 4 + 4)]).toEqual([0, 0, 255, 255]);
    expect(alphaAt(pixels, 0, 55)).toBe(255);
    expect(alphaAt(pixels, 80, 80)).toBe(0);
    // The speck (a pixel or two) and the left half of a 10-pixel disc.
    expect(painted(pixels)).toBeLessThan(50);
  });
});
