import { Transform, type TransformCallback } from 'node:stream';
import { ATTACHMENT_MESSAGES, type AttachmentExtension } from '@pathology/contract';
import { HeadCheck } from '../../http/head-check.ts';
import { HttpError } from '../../http/http-error.ts';
import { BlobSizeMismatchError } from '../../storage/blob-store.ts';
import { attachmentContentMatches } from './attachment-signature.ts';

/** 413 with the spec's limit. */
export const tooLarge = () => new HttpError(413, ATTACHMENT_MESSAGES.tooLarge);

/**
 * Passes bytes through and fails the stream once more than `maxBytes` went by, for bodies whose
 * length was not announced (chunked): the blob store then commits nothing.
 */
export class SizeLimit extends Transform {
  #bytes = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#bytes += chunk.length;
    if (this.#bytes > this.maxBytes) return callback(tooLarge());
    callback(null, chunk);
  }
}

/** Fails the stream when the first bytes are not what the extension promises (HTML named .pdf); an empty body fails too. */
export function attachmentContentCheck(extension: AttachmentExtension): HeadCheck {
  return new HeadCheck({
    accepts: (head) => attachmentContentMatches(head, extension),
    refusal: () => new HttpError(415, ATTACHMENT_MESSAGES.contentDoesNotMatchExtension),
    empty: () => new HttpError(422, ATTACHMENT_MESSAGES.emptyFile),
  });
}

const CUT_CODES = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'EPIPE']);

/**
 * A body that ended early or was cut (the client went away, or sent fewer bytes than its
 * Content-Length) is the client's failure, answered 400 rather than logged as a server error.
 */
export function asUploadError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  const cut =
    error instanceof BlobSizeMismatchError ||
    CUT_CODES.has(code) ||
    (error instanceof Error && error.message === 'aborted');
  return cut ? new HttpError(400, ATTACHMENT_MESSAGES.uploadIncomplete) : error;
}
