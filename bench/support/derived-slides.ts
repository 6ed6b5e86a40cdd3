import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { writeNdpi } from '../../apps/server/src/imaging/ndpi-writer.test-support.ts';
import { slidePath } from '../../apps/server/test/testdata.ts';
import { NDPI_SLIDE_LEVELS } from '../convert/ndpi-slides.ts';

const exec = promisify(execFile);
export const SMALL = 'CMU-1-Small-Region.svs';

/** The derived Aperio-style slide: CMU-1-Small-Region's page 0 (with its Aperio description) replicated, 240-px JPEG tiles, pyramid. */
export async function deriveLargeSlide(dir: string, [across, down]: [number, number]): Promise<string> {
  const page0 = path.join(dir, 'page0.v');
  const target = path.join(dir, `aperio-${across}x${down}.tif`);
  await exec('vips', ['tiffload', slidePath(SMALL), page0]);
  await exec('vips', [
    'replicate',
    page0,
    `${target}[tile,tile-width=240,tile-height=240,pyramid,compression=jpeg,Q=85,bigtiff]`,
    String(across),
    String(down),
  ]);
  await fs.rm(page0);
  return target;
}

/**
 * The NDPI replica of the large slide: its pixels fitted to a whole slide's NDPI levels (1.1 GP, as the Aperio
 * replica), laid out as a NanoZoomer writes it (issue 44's writer, which Debian's OpenSlide reads as vendor
 * hamamatsu): one 4:4:4 JPEG strip per level with restart segments, McuStarts, a macro and a map picture.
 */
export async function deriveNdpiReplica(dir: string, source: string): Promise<string> {
  const target = path.join(dir, 'ndpi-replica.ndpi');
  const start = performance.now();
  await writeNdpi(target, {
    source,
    levels: NDPI_SLIDE_LEVELS,
    sourceLens: 20,
    mpp: 0.5,
  });
  console.log(`NDPI replica written in ${((performance.now() - start) / 1000).toFixed(0)} s`);
  return target;
}
