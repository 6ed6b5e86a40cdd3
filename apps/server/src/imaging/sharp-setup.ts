import { createRequire } from 'node:module';
import os from 'node:os';
import type SharpModule from 'sharp';

type Sharp = typeof SharpModule;

const require = createRequire(import.meta.url);
let loaded: Sharp | undefined;

function load(): Sharp {
  if (loaded) return loaded;
  const module = require('sharp') as Sharp;
  // libvips' operation cache hands a later read of the same file the loader of an earlier one; for a
  // sequential loader already read to its end that fails ("out of order read") on a reprocess or a
  // second tile of the same page. Slides are read once per conversion, so the cache saves nothing.
  module.cache(false);
  // On glibc sharp defaults to one libvips thread per pipeline (against heap fragmentation); a
  // conversion then uses one core where the vips command line uses all of them.
  module.concurrency(os.availableParallelism());
  return (loaded = module);
}

/**
 * sharp, loaded and set up when first called: libvips and its format libraries are about 19 MiB of a process's
 * memory, which an API process that has served no image yet (and the start itself) need not pay, as with ONNX
 * Runtime in on-first-use.ts. Called and read like the package's own export.
 */
export const sharp: Sharp = new Proxy(load as unknown as Sharp, {
  apply: (_target, _this, args: unknown[]) => (load() as unknown as (...input: unknown[]) => unknown)(...args),
  get: (_target, key) => Reflect.get(load(), key) as unknown,
});
