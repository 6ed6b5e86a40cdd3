import os from 'node:os';
import sharp from 'sharp';

// libvips' operation cache hands a later read of the same file the loader of an earlier one; for a
// sequential loader already read to its end that fails ("out of order read") on a reprocess or a
// second tile of the same page. Slides are read once per conversion, so the cache saves nothing.
sharp.cache(false);

// On glibc sharp defaults to one libvips thread per pipeline (against heap fragmentation); a
// conversion then uses one core where the vips command line uses all of them.
sharp.concurrency(os.availableParallelism());
