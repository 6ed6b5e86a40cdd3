import sharp from 'sharp';

// libvips' operation cache hands a later read of the same file the loader of an earlier one; for a
// sequential loader already read to its end that fails ("out of order read") on a reprocess or a
// second tile of the same page. Slides are read once per conversion, so the cache saves nothing.
sharp.cache(false);
