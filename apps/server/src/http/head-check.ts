import { Transform, type TransformCallback } from 'node:stream';

/** Bytes read before judging what a file is; every magic number we know sits well inside them. */
export const HEAD_BYTES = 4096;

export interface HeadCheckOptions {
  /** Whether the first (up to HEAD_BYTES) bytes are what the upload claims to be. */
  accepts: (head: Buffer) => boolean;
  /** The error when they are not. */
  refusal: () => Error;
  /** The error for a body with no bytes at all. */
  empty: () => Error;
}

/** Throws what `options` say about a file's first bytes, read whole beforehand (fewer than HEAD_BYTES for a small file). */
export function judgeHead(head: Buffer, options: HeadCheckOptions): void {
  if (head.length === 0) throw options.empty();
  if (!options.accepts(head.subarray(0, HEAD_BYTES))) throw options.refusal();
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
    this.#judge(callback);
  }

  #judge(callback: TransformCallback): void {
    this.#judged = true;
    const head = Buffer.concat(this.#head);
    this.#head = [];
    try {
      judgeHead(head, this.options);
    } catch (error) {
      return callback(error as Error);
    }
    callback(null, head);
  }
}
