import { Transform, type TransformCallback } from 'node:stream';
import { BlobSizeMismatchError } from './blob-store.ts';

/**
 * Counts the bytes that pass through and, when a size was declared, fails the stream as soon as the count is
 * wrong, so that a store never commits a short or overlong body.
 */
export class ByteCounter extends Transform {
  bytes = 0;

  constructor(private readonly expected?: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.expected !== undefined && this.bytes > this.expected) {
      callback(new BlobSizeMismatchError(`body is longer than the declared ${this.expected} bytes`));
      return;
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.expected !== undefined && this.bytes !== this.expected) {
      callback(new BlobSizeMismatchError(`body ended after ${this.bytes} of the declared ${this.expected} bytes`));
      return;
    }
    callback();
  }
}
