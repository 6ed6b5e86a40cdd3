import { describe, expect, it } from 'vitest';
import { JPEG_COMPRESSION, TIFF_TAG, type TiffPage } from '../../imaging/index.ts';
import { planOriginal, pyramidLevels, sourceFor } from './original-plan.ts';

let nextIndex = 0;

/** A page as the TIFF reader returns it: 8-bit RGB JPEG tiles of 240 px unless told otherwise. */
function page(width: number, height: number, overrides: Partial<TiffPage> = {}): TiffPage {
  return {
    index: nextIndex++,
    offset: 8,
    width,
    height,
    tileWidth: 240,
    tileHeight: 240,
    rowsPerStrip: null,
    compression: JPEG_COMPRESSION,
    photometric: 2,
    bitsPerSample: [8, 8, 8],
    sampleFormat: [1, 1, 1],
    samplesPerPixel: 3,
    planarConfiguration: 1,
    imageDescription: null,
    subfileType: 0,
    tileOffsets: [],
    tileByteCounts: [],
    stripOffsets: [],
    stripByteCounts: [],
    jpegTables: null,
    ndpiMarker: null,
    xResolution: null,
    yResolution: null,
    resolutionUnit: 2,
    dateTime: null,
    tags: new Map(),
    ...overrides,
  };
}

describe('the levels an original is served at', () => {
  it('are the pyramid dzsave will write: sizes halved and rounded up until one 512 tile holds the level', () => {
    expect(pyramidLevels(2220, 2967)).toEqual([
      { width: 2220, height: 2967 },
      { width: 1110, height: 1484 },
      { width: 555, height: 742 },
      { width: 278, height: 371 },
    ]);
    expect(pyramidLevels(512, 300)).toEqual([{ width: 512, height: 300 }]);
    expect(pyramidLevels(31080, 35604)).toHaveLength(8);
  });
});

describe('planOriginal', () => {
  it('takes an Aperio file’s levels (scale 4, 16) and leaves out its thumbnail, label and macro', () => {
    const full = page(46000, 32914, { imageDescription: 'Aperio Image Library v11.2.1' });
    const pages = [
      full,
      page(1024, 732, { tileWidth: null, tileHeight: null }),
      page(11500, 8228),
      page(2875, 2057),
      page(387, 463, { tileWidth: null, compression: 5, subfileType: 1 }),
      page(1280, 431, { tileWidth: null, subfileType: 9 }),
    ];
    const plan = planOriginal(pages)!;
    expect(plan.sources.map((source) => [source.page.index, source.scale])).toEqual([
      [full.index, 1],
      [pages[2]!.index, 4],
      [pages[3]!.index, 16],
    ]);
    expect(plan.levels[0]).toEqual({ width: 46000, height: 32914 });
    expect(plan.levels).toHaveLength(8);
    // Each level is cut from the most reduced page that still has its detail.
    expect([0, 1, 2, 3, 4, 7].map((level) => sourceFor(plan, level).scale)).toEqual([1, 1, 4, 4, 16, 16]);
    expect(plan.pyramidPages).toBeNull();
  });

  it('keeps a level that is no power of two at its own scale, and snaps rounded-down halvings to powers of two', () => {
    const plan = planOriginal([page(3001, 2001), page(1000, 667), page(1500, 1000)])!;
    expect(plan.sources.map((source) => source.scale)).toEqual([1, 2, 3001 / 1000]);
    // A whole factor finer is preferred (block means give the pyramid's pixels) while it costs at most 8 MP a tile.
    expect(sourceFor(plan, 1).scale).toBe(2);
    expect(sourceFor(plan, 2).scale).toBe(2);
  });

  it('cuts from a page that is no power of two when the whole-factor pages would cost too much', () => {
    const sources = [
      { page: page(30001, 20001), scale: 1 },
      { page: page(15000, 10000), scale: 2 },
      { page: page(10000, 6667), scale: 3.0001 },
    ];
    expect(sourceFor({ sources }, 2).scale).toBe(2);
    expect(sourceFor({ sources }, 3).scale).toBe(2);
    expect(sourceFor({ sources }, 4).scale).toBe(3.0001);
  });

  it('serves an original shaped like our pyramid (512 YCbCr JPEG tiles, halving levels) as one', () => {
    const tiled = { tileWidth: 512, tileHeight: 512, photometric: 6 };
    const plan = planOriginal([page(1100, 900, tiled), page(550, 450, tiled), page(275, 225, tiled)])!;
    expect(plan.pyramidPages?.map((p) => p.width)).toEqual([1100, 550, 275]);
    // One level short of the pyramid: cut like any other original.
    expect(planOriginal([page(1100, 900, tiled), page(550, 450, tiled)])!.pyramidPages).toBeNull();
    // Aperio's RGB JPEG tiles are not passed through: a bare JPEG of them would decode as YCbCr.
    expect(planOriginal([page(1100, 900), page(550, 450)])!.pyramidPages).toBeNull();
  });

  it('refuses what must be converted first: NDPI, strips, 16-bit, JPEG 2000, rotated, smaller than a tile', () => {
    expect(planOriginal([page(4000, 3000, { ndpiMarker: 1 })])).toBeNull();
    expect(planOriginal([page(4000, 3000, { tileWidth: null, tileHeight: null })])).toBeNull();
    expect(planOriginal([page(4000, 3000, { bitsPerSample: [16], samplesPerPixel: 1, photometric: 1 })])).toBeNull();
    expect(planOriginal([page(4000, 3000, { compression: 33003 })])).toBeNull();
    const rotated = new Map([[TIFF_TAG.Orientation, { type: 3, count: 1, value: [6] }]]);
    expect(planOriginal([page(4000, 3000, { tags: rotated })])).toBeNull();
    expect(planOriginal([page(100, 80)])).toBeNull();
  });

  it('refuses a single-level original too large to cut its smallest levels from (more than 8 MP a tile)', () => {
    expect(planOriginal([page(2220, 2967)])).not.toBeNull();
    expect(planOriginal([page(40000, 40000)])).toBeNull();
    expect(planOriginal([page(40000, 40000), page(10000, 10000), page(2500, 2500), page(625, 625)])).not.toBeNull();
  });

  it('accepts deflate and grey pages', () => {
    expect(planOriginal([page(2000, 1500, { compression: 8 })])).not.toBeNull();
    const grey = { samplesPerPixel: 1, bitsPerSample: [8], sampleFormat: [1], photometric: 1 };
    expect(planOriginal([page(2000, 1500, grey)])).not.toBeNull();
  });
});
