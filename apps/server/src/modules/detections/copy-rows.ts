import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';

/** Bytes handed to COPY at a time: big enough that the stream's own overhead disappears. */
const CHUNK_BYTES = 256 * 1024;

/**
 * Rows for a `COPY … FROM STDIN`, encoded into Buffers as they are added. Encoding each short row costs about half as much
 * as encoding one long string built by concatenating them (V8 flattens it first, then encodes it).
 */
export class CopyRows {
  private chunk = Buffer.allocUnsafe(2 * CHUNK_BYTES);
  private used = 0;
  private ready: Buffer[] = [];

  /** `copy`: the COPY query's stream (pg-copy-streams). */
  constructor(private readonly copy: Writable) {}

  /** Adds a row, its newline included; true when enough is gathered to `flush`. */
  add(row: string): boolean {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: with that much room the row cannot be cut short.
    const most = 3 * row.length;
    if (this.used + most > this.chunk.length) this.seal(most);
    this.used += this.chunk.write(row, this.used);
    return this.used >= CHUNK_BYTES;
  }

  /** Hands the rows gathered so far to COPY, waiting while it is behind. */
  async flush(): Promise<void> {
    this.seal(0);
    const ready = this.ready;
    this.ready = [];
    for (const chunk of ready) if (!this.copy.write(chunk)) await once(this.copy, 'drain');
  }

  /** Hands on the last rows and waits for COPY to have stored them all. */
  async end(): Promise<void> {
    await this.flush();
    this.copy.end();
    await finished(this.copy);
  }

  /** Sets the gathered rows aside and starts a chunk with room for at least `room` bytes. */
  private seal(room: number): void {
    if (this.used > 0) this.ready.push(this.chunk.subarray(0, this.used));
    if (this.used > 0 || room > this.chunk.length) this.chunk = Buffer.allocUnsafe(Math.max(2 * CHUNK_BYTES, room));
    this.used = 0;
  }
}
