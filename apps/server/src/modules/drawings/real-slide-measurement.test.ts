import { open } from 'node:fs/promises';
import { measureDrawing, measurementText, micronsPerPixelXY } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { resolutionFromMpp } from '../../imaging/resolution.ts';
import { readTiffStructure } from '../../imaging/tiff-structure.ts';
import { slidePath } from '#test/testdata.ts';

describe('measurements on a real slide', () => {
  it("measure a ruler and a rectangle with the Aperio slide's own MPP", async () => {
    const handle = await open(slidePath('CMU-1-Small-Region.svs'));
    const structure = await readTiffStructure(handle).finally(() => handle.close());
    const mpp = Number(/MPP = ([\d.]+)/.exec(structure.pages[0]!.imageDescription ?? '')![1]);
    expect(mpp).toBeCloseTo(0.499, 3);

    // The same path the pipeline takes: MPP → stored resolution (dpc) → µm per pixel.
    const scale = micronsPerPixelXY(resolutionFromMpp(mpp, mpp));
    expect(scale!.x).toBeCloseTo(mpp, 12);
    const ruler = measureDrawing(
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [2000, 0],
        ],
      },
      scale,
    );
    expect(ruler.length).toBeCloseTo(998, 6);
    expect(measurementText(ruler)).toBe('998 µm');
    const square = measureDrawing(
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1000, 0],
            [1000, 1000],
            [0, 1000],
            [0, 0],
          ],
        ],
      },
      scale,
    );
    expect(measurementText(square)).toBe('A 249,001 µm² · P 2 mm');
  });
});
