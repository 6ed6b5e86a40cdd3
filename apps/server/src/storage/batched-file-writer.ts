import fs, { type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/**
 * How much may gather while a write is under way before the stream asks its source to wait. A socket hands over
 * 64 KiB at a time; writing each on its own costs a trip through libuv's thread pool (a wake-up and a context
 * switch) per 64 KiB, which on a busy machine cost more than the copy into the page cache itself (issue 30).
 */
export const WRITE_BATCH_BYTES = 4 * 1024 * 1024;

export interface BatchedFileWriterOptions {
  /** open(2) flags: 'wx' for a new file, 'r+' to write into one at `start`. */
  flags: string;
  start?: number;
  /** fsync before 'finish', so that a file reported written is on disk. */
  flush?: boolean;
  batchBytes?: number;
}

/**
 * A file writer that writes each chunk as soon as no write is under way, and everything that arrived during a
 * write with one writev after it. Fast senders so get few large writes; a slow one (a throttled browser) gets its
 * bytes on disk at once, so a server killed mid-upload loses at most the write under way and a resumed upload
 * goes on from nearly where it stopped.
 */
export class BatchedFileWriter extends Writable {
  /** Bytes written to the file so far. */
  bytesWritten = 0;
  /** writev calls so far: how well the chunks were gathered. */
  writes = 0;
  #handle: FileHandle | undefined;
  #position: number;

  constructor(
    private readonly file: string,
    private readonly options: BatchedFileWriterOptions,
  ) {
    super({ highWaterMark: options.batchBytes ?? WRITE_BATCH_BYTES });
    this.#position = options.start ?? 0;
  }

  override _construct(callback: (error?: Error | null) => void): void {
    fs.open(this.file, this.options.flags).then((handle) => {
      this.#handle = handle;
      callback();
    }, callback);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#writeAll([chunk]).then(() => callback(), callback);
  }

  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    this.#writeAll(chunks.map(({ chunk }) => chunk)).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    Promise.resolve(this.options.flush ? this.#handle!.sync() : undefined).then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const handle = this.#handle;
    this.#handle = undefined;
    if (handle == null) return callback(error);
    handle.close().then(
      () => callback(error),
      (closing: unknown) => callback(error ?? (closing as Error)),
    );
  }

  async #writeAll(buffers: Buffer[]): Promise<void> {
    // writev may write less than asked (a full disk part-way): what is left is written again from there.
    let pending = buffers;
    while (pending.length > 0) {
      this.writes += 1;
      const { bytesWritten } = await this.#handle!.writev(pending, this.#position);
      if (bytesWritten === 0) throw new Error(`no byte of ${this.file} could be written at ${this.#position}`);
      this.#position += bytesWritten;
      this.bytesWritten += bytesWritten;
      pending = rest(pending, bytesWritten);
    }
  }
}

/** The buffers after the first `skip` bytes. */
function rest(buffers: Buffer[], skip: number): Buffer[] {
  let index = 0;
  while (index < buffers.length && skip >= buffers[index]!.length) skip -= buffers[index++]!.length;
  if (index === buffers.length) return [];
  return [buffers[index]!.subarray(skip), ...buffers.slice(index + 1)];
}
