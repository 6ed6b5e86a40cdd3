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
