import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { Utf8Chunks } from './utf8-chunks.ts';

/** Bytes handed to COPY at a time: big enough that the stream's own overhead disappears. */
const CHUNK_BYTES = 256 * 1024;

/** Rows for a `COPY … FROM STDIN`, encoded into Buffers as they are added. */
export class CopyRows {
  private readonly rows = new Utf8Chunks(2 * CHUNK_BYTES);

  /** `copy`: the COPY query's stream (pg-copy-streams). */
  constructor(private readonly copy: Writable) {}

  /** Adds a row, its newline included; true when enough is gathered to `flush`. */
  add(row: string): boolean {
    return this.rows.add(row) >= CHUNK_BYTES;
  }

  /** Hands the rows gathered so far to COPY, waiting while it is behind. */
  async flush(): Promise<void> {
    for (const chunk of this.rows.take()) if (!this.copy.write(chunk)) await once(this.copy, 'drain');
  }

  /** Hands on the last rows and waits for COPY to have stored them all. */
  async end(): Promise<void> {
    await this.flush();
    this.copy.end();
    await finished(this.copy);
  }
}
