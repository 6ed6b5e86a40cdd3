import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { slidePath } from '#test/testdata.ts';

const run = promisify(execFile);

it('fails OpenSlide formats with -100 and says what to install when vips is missing, but still converts TIFFs', async () => {
  const emptyBin = await fs.mkdtemp(path.join(os.tmpdir(), 'no-vips-'));
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'no-vips-work-'));
  // A child process whose PATH has no vips: the probe is cached per process, so this one must start afresh.
  const script = `
    import { convertImage, UnsupportedImageError } from './apps/server/src/imaging/index.ts';
    const attempt = (sourcePath) => convertImage({ sourcePath, workDir: process.env.WORK_DIR, timeoutMs: 30000 })
      .then((result) => ({ layers: result.layers.length }))
      .catch((error) => ({ unsupported: error instanceof UnsupportedImageError, message: error.message }));
    console.log(JSON.stringify([await attempt(process.env.SVS), await attempt(process.env.TIF)]));`;
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../../../..'),
      env: {
        ...process.env,
        PATH: emptyBin,
        WORK_DIR: workDir,
        SVS: slidePath('CMU-1-Small-Region.svs'),
        TIF: slidePath('smalltif-16bit.tif'),
      },
    });
    const [svs, tif] = JSON.parse(stdout.trim().split('\n').at(-1)!) as [
      Record<string, unknown>,
      Record<string, unknown>,
    ];
    expect(svs).toEqual({
      unsupported: true,
      message: 'OpenSlide is not installed: apt-get install -y libvips-tools openslide-tools',
    });
    expect(tif).toEqual({ layers: 1 });
  } finally {
    await fs.rm(emptyBin, { recursive: true, force: true });
    await fs.rm(workDir, { recursive: true, force: true });
  }
}, 60_000);
