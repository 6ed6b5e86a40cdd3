import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { slidePath } from '../../apps/server/test/testdata.ts';

const run$ = promisify(execFile);

/** CMU-1-Small-Region (2,220 × 2,967) replicated `replicate` × `replicate` into a tiled pyramidal TIFF in `dir`. */
export async function enlargedSlide(dir: string, replicate: number): Promise<string> {
  const out = path.join(dir, `CMU-1-Small-Region-${replicate}x${replicate}.tif`);
  const target = `${out}[tile,tile-width=256,tile-height=256,pyramid,compression=jpeg,Q=85,bigtiff]`;
  await run$('vips', [
    'replicate',
    `${slidePath('CMU-1-Small-Region.svs')}[rgb]`,
    target,
    String(replicate),
    String(replicate),
  ]);
  return out;
}
