import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConvertContext } from './context.ts';
import { vips } from './vips-cli.ts';

let context: ConvertContext;
beforeAll(async () => {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'vips-cli-'));
  context = { sourcePath: '', workDir, deadline: Date.now() + 60_000, maxPixels: 1e9, niceness: 0 };
});
afterAll(() => rm(context.workDir, { recursive: true, force: true }));

describe('vips', () => {
  it('starts without the loaders of libvips’ modules when the run needs only those built in', async () => {
    const loaders = async (builtinOnly: boolean) =>
      (await vips(context, 'vips', ['-l', 'foreign'], { builtinOnly })).stdout;
    expect(await loaders(false)).toMatch(/\bopenslideload\b/);
    const builtin = await loaders(true);
    expect(builtin).not.toMatch(/\bopenslideload\b/);
    expect(builtin).toMatch(/\bjpegload_source\b/);
  });
});
