/** Thrown for data we cannot convert now or ever: the job marks the image process_failed with -100 and this message. */
export class UnsupportedImageError extends Error {
  override name = 'UnsupportedImageError';
}

/** The upload route shows one fixed message; `reason` is for logs only, so it never leaks zip internals to users. */
export class InvalidVsiZipError extends Error {
  override name = 'InvalidVsiZipError';
  constructor(readonly reason: string) {
    super('Invalid VSI zip file');
  }
}

/** A conversion step ran past its time limit; transient for the job (-101 after retries). */
export class ImagingTimeoutError extends Error {
  override name = 'ImagingTimeoutError';
}

/** A tool's process was killed by a signal it did not raise itself; transient for the job (-101 after retries). */
export class ToolKilledError extends Error {
  override name = 'ToolKilledError';
}

/** Exhausted resources: another attempt, later or elsewhere, may succeed. */
const TRANSIENT = /out of memory|cannot allocate|bad_alloc|no space left|ENOSPC|ENOMEM|EMFILE|too many open files/i;
/**
 * What libvips and its loaders (through sharp) say about data they cannot decode: a corrupt
 * header, truncated or damaged pixel data, a format or variant they do not support.
 */
const UNREADABLE =
  /corrupt|premature end|truncated|not a known file format|unsupported|unknown (?:file|image) format|bad (?:huffman|marker|header)|exceeds pixel limit|read error|load failed|tiff2vips|VipsJpeg|pngload|jpegload|tiffload|libpng|libtiff|gifload|webpload/i;

/**
 * The error code an imaging failure deserves: data that can never convert becomes an
 * UnsupportedImageError (-100, with the decoder's reason); time limits and exhausted resources,
 * like any unrecognised failure, stay transient (-101 after retries).
 */
export function classifyImagingError(error: unknown): unknown {
  if (
    error instanceof UnsupportedImageError ||
    error instanceof ImagingTimeoutError ||
    error instanceof ToolKilledError
  ) {
    return error;
  }
  if (!(error instanceof Error) || TRANSIENT.test(error.message)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && code.startsWith('E')) return error;
  if (!UNREADABLE.test(error.message)) return error;
  return new UnsupportedImageError(`The image data cannot be read: ${error.message.trim().split('\n')[0]}`, {
    cause: error,
  });
}
