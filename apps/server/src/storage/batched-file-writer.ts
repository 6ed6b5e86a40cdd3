import fs, { type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/**
 * Bytes gathered before one write. A socket hands over 64 KiB at a time; writing each on its own costs a trip
 * through libuv's thread pool (a wake-up and a context switch) per 64 KiB, which on a busy machine cost more than the
 * copy into the page cache itself (issue 30).
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
 * A file writer that gathers what it is given into batches of `batchBytes` and writes each with one writev.
 * A chunk is taken as soon as it is buffered, so a failed write fails the next chunk or the end of the stream;
 * memory stays under two batches (the one being written and the one filling).
 */
export class BatchedFileWriter extends Writable {
  /** Bytes written to the file so far (not those still gathered). */
  bytesWritten = 0;
  #handle: FileHandle | undefined;
  #position: number;
  #batch: Buffer[] = [];
  #batchLength = 0;
  readonly #batchBytes: number;

  constructor(
    private readonly file: string,
    private readonly options: BatchedFileWriterOptions,
  ) {
    const batchBytes = options.batchBytes ?? WRITE_BATCH_BYTES;
    super({ highWaterMark: batchBytes });
    this.#batchBytes = batchBytes;
    this.#position = options.start ?? 0;
  }

  override _construct(callback: (error?: Error | null) => void): void {
    fs.open(this.file, this.options.flags).then((handle) => {
      this.#handle = handle;
      callback();
    }, callback);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#batch.push(chunk);
    this.#batchLength += chunk.length;
    if (this.#batchLength < this.#batchBytes) return callback();
    this.#writeBatch().then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#writeBatch()
      .then(() => (this.options.flush ? this.#handle!.sync() : undefined))
      .then(() => callback(), callback);
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

  async #writeBatch(): Promise<void> {
    const batch = this.#batch;
    this.#batch = [];
    this.#batchLength = 0;
    // writev may write less than asked (a full disk part-way): what is left is written again from there.
    let pending = batch;
    while (pending.length > 0) {
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
