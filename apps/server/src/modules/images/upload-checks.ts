import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { ATTACHMENT_EXTENSIONS, IMAGE_MESSAGES, IMAGE_UPLOAD_EXTENSIONS } from '@pathology/contract';
import { HttpError } from '../../http/http-error.ts';
import { kindMatchesExtension, sniffKind } from '../../imaging/index.ts';

/** Bytes read before judging what a file is; every magic number we know sits well inside them. */
const HEAD_BYTES = 4096;

/** The lowercase extension of an image upload; 415 with the spec's message when it is not an image type. */
export function imageExtension(filename: string): string {
  const extension = path.extname(filename).toLowerCase();
  if ((IMAGE_UPLOAD_EXTENSIONS as readonly string[]).includes(extension)) return extension;
  const known = (ATTACHMENT_EXTENSIONS as readonly string[]).includes(extension);
  throw new HttpError(415, known ? IMAGE_MESSAGES.unsupportedFileType : IMAGE_MESSAGES.unknownExtension);
}

/**
 * Passes bytes through unchanged but fails the stream when the first bytes are not what the
 * extension promises (a PNG named .svs), so the blob store never commits such a file.
 */
export class ContentCheck extends Transform {
  #head: Buffer[] = [];
  #headLength = 0;
  #judged = false;

  constructor(private readonly extension: string) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.#judged) return callback(null, chunk);
    this.#head.push(chunk);
    this.#headLength += chunk.length;
    if (this.#headLength < HEAD_BYTES) return callback();
    this.#judge(callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.#judged) return callback();
    if (this.#headLength === 0) return callback(new HttpError(422, IMAGE_MESSAGES.emptyFile));
    this.#judge(callback);
  }

  #judge(callback: TransformCallback): void {
    this.#judged = true;
    const head = Buffer.concat(this.#head);
    this.#head = [];
    if (!kindMatchesExtension(sniffKind(head.subarray(0, HEAD_BYTES)), this.extension)) {
      return callback(new HttpError(415, IMAGE_MESSAGES.contentDoesNotMatchExtension));
    }
    callback(null, head);
  }
}
