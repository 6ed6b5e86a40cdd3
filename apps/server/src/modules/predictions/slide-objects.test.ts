import { describe, expect, it } from 'vitest';
import { ManifestEntrySchema } from './model-manifest.ts';
import { cellObjects } from './slide-objects.ts';

const SIZE = 16;

/** A map of one label: 1 inside the given squares [x, y, side] (pixels of the model's input), 0 elsewhere. */
function mapWith(squares: [number, number, number][]): Float32Array {
  const map = new Float32Array(SIZE * SIZE);
  for (const [x0, y0, side] of squares) {
    for (let y = y0; y < y0 + side; y++) for (let x = x0; x < x0 + side; x++) map[y * SIZE + x] = 1;
  }
  return map;
}

describe('objects of a probability map', () => {
  const labels = [{ name: 'Nucleus', color: '#7048e8' }];
  const cell = { x: 320, y: 160, scale: 2, width: 10_000, height: 10_000 };

  it('outlines each connected region above the threshold in image pixels, leaving out specks', () => {
    const { features, peaks } = cellObjects(
      mapWith([
        [1, 1, 4],
        [10, 8, 5],
        [14, 1, 1],
      ]),
      SIZE,
      labels,
      { threshold: 0.5, minPixels: 4 },
      cell,
    );
    expect(peaks).toEqual([1]);
    expect(features).toHaveLength(2);
    const boxes = features.map((feature) => {
      const ring = (feature as { geometry: { coordinates: number[][][] } }).geometry.coordinates[0]!;
      expect(ring[0]).toEqual(ring.at(-1));
      const xs = ring.map(([x]) => x!);
      const ys = ring.map(([, y]) => y!);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    });
    // Input pixels 1–4 of the square at (1, 1) span 1 to 5 on the grid, image pixels 322–330 × 162–170.
    expect(boxes).toEqual([
      [322, 162, 330, 170],
      [340, 176, 350, 186],
    ]);
    expect(features[0]).toMatchObject({
      properties: { objectType: 'detection', classification: { name: 'Nucleus', color: '#7048e8' } },
    });
  });

  it('finds nothing where no pixel reaches the threshold, and clips objects to the image', () => {
    expect(
      cellObjects(new Float32Array(SIZE * SIZE).fill(0.4), SIZE, labels, { threshold: 0.5, minPixels: 1 }, cell),
    ).toEqual({ features: [], peaks: [expect.closeTo(0.4, 5)] });
    const edge = cellObjects(
      mapWith([[8, 8, 8]]),
      SIZE,
      labels,
      { threshold: 0.5, minPixels: 1 },
      {
        ...cell,
        width: 350,
        height: 180,
      },
    );
    const ring = (edge.features[0] as { geometry: { coordinates: number[][][] } }).geometry.coordinates[0]!;
    expect(Math.max(...ring.map(([x]) => x!))).toBe(350);
    expect(Math.max(...ring.map(([, y]) => y!))).toBe(180);
  });

  it('is declared in a manifest entry by `objects`, with defaults', () => {
    const entry = {
      modelName: 'others',
      file: 'nuclei.onnx',
      version: '1',
      inputSize: 128,
      magnification: 20,
      labels: ['Nucleus'],
      labelGroups: [
        { name: 'n', labelNames: ['Nucleus'], type: 'abnormal', displayName: 'N', color: '#000000', positive: true },
      ],
    };
    expect(ManifestEntrySchema.parse(entry).objects).toBeUndefined();
    expect(ManifestEntrySchema.parse({ ...entry, objects: {} }).objects).toEqual({ threshold: 0.5, minPixels: 4 });
    expect(ManifestEntrySchema.safeParse({ ...entry, objects: { threshold: 0 } }).success).toBe(false);
  });
});
