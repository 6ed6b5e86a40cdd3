import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { TRANSFER_SYNTAX } from '../../imaging/dicom-write.ts';

export interface Part {
  contentType: string;
  body: () => Promise<Buffer | Readable>;
}

/** A multipart/related body (PS3.18 §8.6.1.2), each part made only when the client has read the one before. */
export function multipartRelated(
  type: string,
  parts: Iterable<Part>,
  parameters = '',
): { contentType: string; body: Readable } {
  const boundary = randomBytes(16).toString('hex');
  async function* bytes() {
    for (const part of parts) {
      yield Buffer.from(`--${boundary}\r\nContent-Type: ${part.contentType}\r\n\r\n`);
      const body = await part.body();
      if (Buffer.isBuffer(body)) yield body;
      else yield* body;
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return {
    contentType: `multipart/related; type="${type}"${parameters}; boundary=${boundary}`,
    body: Readable.from(bytes(), { objectMode: false }),
  };
}

interface MediaRange {
  type: string;
  /** The `type` parameter of multipart/related. */
  partType: string | null;
  transferSyntax: string | null;
}

/** The media ranges of an Accept header, with the parameters DICOMweb gives them; none means anything. */
export function mediaRanges(accept: string | undefined): MediaRange[] {
  if (accept == null || accept.trim() === '') return [{ type: '*/*', partType: null, transferSyntax: null }];
  return accept.split(',').map((range) => {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim());
    const parameter = (name: string) => {
      const found = parameters.find((entry) => entry.toLowerCase().startsWith(`${name}=`));
      return found == null ? null : found.slice(name.length + 1).replace(/^"|"$/g, '');
    };
    return {
      type: type.toLowerCase(),
      partType: parameter('type')?.toLowerCase() ?? null,
      transferSyntax: parameter('transfer-syntax'),
    };
  });
}

/** Whether a range takes our JPEG baseline frames as they are stored. */
export function takesJpeg(range: MediaRange): boolean {
  return (
    range.transferSyntax == null ||
    range.transferSyntax === '*' ||
    range.transferSyntax === TRANSFER_SYNTAX.jpegBaseline
  );
}

/**
 * The media type frames go out as, from the client's Accept: image/jpeg parts when asked for, else
 * application/octet-stream; null when the client takes neither with JPEG baseline (406: we never decode frames).
 * An octet-stream without transfer-syntax means uncompressed (PS3.18 §8.7.3.5.2), which we do not make.
 */
export function framesMediaType(accept: string | undefined): 'image/jpeg' | 'application/octet-stream' | null {
  const ranges = mediaRanges(accept);
  const multipart = ranges.filter((range) => range.type === 'multipart/related');
  if (multipart.some((range) => range.partType === 'image/jpeg' && takesJpeg(range))) return 'image/jpeg';
  if (
    multipart.some(
      (range) => range.partType === 'application/octet-stream' && range.transferSyntax != null && takesJpeg(range),
    )
  ) {
    return 'application/octet-stream';
  }
  if (
    ranges.some(
      (range) =>
        range.type === '*/*' ||
        (range.type === 'multipart/related' && (range.partType == null || range.partType === '*/*')),
    )
  ) {
    return 'application/octet-stream';
  }
  return null;
}
