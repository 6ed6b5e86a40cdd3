import path from 'node:path';
import { writeNdpi, type NdpiLevel } from '../../apps/server/src/imaging/ndpi-writer.test-support.ts';

export interface NdpiSlide {
  name: string;
  path: string;
  origin: string;
}

/**
 * The NDPI files the convert bench measures, written as NanoZoomer scanners lay them out (test writer of issue 44:
 * each level one 4:4:4 JPEG strip with restart markers and McuStarts, the private tags, a macro and a map picture),
 * which Debian's OpenSlide reads as vendor hamamatsu, so the vips baseline reads them through openslideload.
 */
/**
 * A whole slide's size: 30,720 × 35,840 (1.1 GP, as the first-tile bench's Aperio replica), levels 4 times smaller
 * each, 512-px restart segments (320 px on the smallest level), sizes in whole segments as NanoZoomer levels are.
 */
export const NDPI_SLIDE_LEVELS: NdpiLevel[] = [
  { width: 30_720, height: 35_840, restartInterval: 64 },
  { width: 7680, height: 8960, restartInterval: 64 },
  { width: 1920, height: 2240, restartInterval: 40 },
];

const NDPI_FILES: Record<string, { levels: NdpiLevel[]; origin: string }> = {
  // Fixed costs (side pictures, header, packing the pyramid) weigh on small files; this one has a slide's size.
  'ndpi-1gp.ndpi': {
    levels: NDPI_SLIDE_LEVELS,
    origin: 'resized to 30,720 × 35,840 at level 0 (1.1 GP), 3 levels (÷4), 512 px restart segments',
  },
  // A slide's size: NanoZoomer levels are 4 times smaller each; 512 px restart segments, 32 across level 0.
  'ndpi-16k.ndpi': {
    levels: [
      { width: 16_384, height: 16_384, restartInterval: 64 },
      { width: 4096, height: 4096, restartInterval: 64 },
      { width: 1024, height: 1024, restartInterval: 32 },
    ],
    origin: 'resized to 16,384² at level 0, 3 levels (÷4), 512 px restart segments',
  },
  // The converter test's odd file: levels 3 and 9 times smaller, segments of 744 and 248 px, a second focal plane.
  'ndpi-odd.ndpi': {
    levels: [
      { width: 2232, height: 2968, restartInterval: 93 },
      { width: 744, height: 992, restartInterval: 31 },
      { width: 744, height: 992, restartInterval: 31, zOffset: 2000 },
      { width: 248, height: 328, restartInterval: 31 },
    ],
    origin: 'levels ÷3 and ÷9, 744 and 248 px restart segments, a second focal plane',
  },
};

export const NDPI_NAMES = Object.keys(NDPI_FILES);

/** Writes the NDPI files whose names `wanted` accepts into `dir`, from the pixels of `source`. */
export async function makeNdpiSlides(
  source: string,
  dir: string,
  wanted: (name: string) => boolean,
): Promise<NdpiSlide[]> {
  const start = performance.now();
  const slides: NdpiSlide[] = [];
  for (const [name, { levels, origin }] of Object.entries(NDPI_FILES)) {
    if (!wanted(name)) continue;
    const file = path.join(dir, name);
    await writeNdpi(file, { source, levels, sourceLens: 20, mpp: 0.5 });
    slides.push({
      name,
      path: file,
      origin: `derived, not from a scanner: ${path.basename(source)}'s pixels as a NanoZoomer-style NDPI, ${origin}`,
    });
  }
  if (slides.length > 0) {
    console.log(`NDPI slides made in ${((performance.now() - start) / 1000).toFixed(1)} s in ${dir}\n`);
  }
  return slides;
}
