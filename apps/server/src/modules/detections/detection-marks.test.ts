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

  // A 40 × 20 pixel box becomes a 10 × 5 ellipse at a quarter scale, centred on tile pixel (50, 30).
  const box = { classIndex: 0, minX: 1180, minY: 2110, maxX: 1220, maxY: 2130 };

  it('draws each object as the ellipse in its box, in its class colour, at the given opacity', () => {
    const pixels = markPixels([box], tile, colors, { fill: 0.5, line: 0 });
    expect([...pixels.subarray((30 * 100 + 50) * 4, (30 * 100 + 50) * 4 + 4)]).toEqual([255, 0, 0, 128]);
    expect(painted(pixels)).toBeGreaterThan(0.8 * Math.PI * 5 * 2.5);
    expect(painted(pixels)).toBeLessThan(1.2 * Math.PI * 5 * 2.5);
    // The box's corners lie outside the ellipse.
    expect(alphaAt(pixels, 45, 28)).toBe(0);
    expect(alphaAt(pixels, 54, 32)).toBe(0);
  });

  it('fills a mark at the fill opacity and edges it at the line opacity over the fill, as an outline', () => {
    const pixels = markPixels([box], tile, colors, { fill: 0.25, line: 0.5 });
    // Row 30 runs from pixel 45 to 54; rows 29 and 31 cover pixels 46 to 53 of it.
    expect([45, 46, 50, 53, 54].map((x) => alphaAt(pixels, x, 30))).toEqual([159, 64, 64, 64, 159]);
    // The top and bottom rows, a pixel each, are edge.
    expect([alphaAt(pixels, 50, 27), alphaAt(pixels, 50, 32)]).toEqual([159, 159]);
    // With no fill, a ring.
    expect(alphaAt(markPixels([box], tile, colors, { fill: 0, line: 1 }), 50, 30)).toBe(0);
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
      { fill: 1, line: 1 },
    );
    expect([...pixels.subarray((10 * 100 + 10) * 4, (10 * 100 + 10) * 4 + 4)]).toEqual([0, 0, 255, 255]);
    expect(alphaAt(pixels, 0, 55)).toBe(255);
    expect(alphaAt(pixels, 80, 80)).toBe(0);
    // The speck (a pixel or two) and the left half of a 10-pixel disc.
    expect(painted(pixels)).toBeLessThan(50);
  });
});
