import { Transform, type TransformCallback } from 'node:stream';

/** Bytes read before judging what a file is; every magic number we know sits well inside them. */
export const HEAD_BYTES = 4096;

interface HeadCheckOptions {
  /** Whether the first (up to HEAD_BYTES) bytes are what the upload claims to be. */
  accepts: (head: Buffer) => boolean;
  /** The error when they are not. */
  refusal: () => Error;
  /** The error for a body with no bytes at all. */
  empty: () => Error;
}

/**
 * Passes bytes through unchanged but fails the stream when the first bytes are not what the
 * upload claims (a PNG named .svs, HTML named .pdf), so the blob store never commits such a file.
 */
export class HeadCheck extends Transform {
  #head: Buffer[] = [];
  #headLength = 0;
  #judged = false;

  constructor(private readonly options: HeadCheckOptions) {
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
    if (this.#headLength === 0) return callback(this.options.empty());
    this.#judge(callback);
  }

  #judge(callback: TransformCallback): void {
    this.#judged = true;
    const head = Buffer.concat(this.#head);
    this.#head = [];
    if (!this.options.accepts(head.subarray(0, HEAD_BYTES))) return callback(this.options.refusal());
    callback(null, head);
  }
}
