/**
 * Text encoded into UTF-8 Buffers as it is added. Encoding many short texts costs about half as much as encoding one
 * long string built by concatenating them (V8 flattens it first, then encodes it).
 */
export class Utf8Chunks {
  private chunk: Buffer;
  private used = 0;
  private sealed: Buffer[] = [];
  private sealedBytes = 0;

  /** `chunkBytes`: the room each chunk starts with; a longer text gets a chunk of its own size. */
  constructor(private readonly chunkBytes: number) {
    this.chunk = Buffer.allocUnsafe(chunkBytes);
  }

  /** Adds `text`; the bytes gathered since the last `take`. */
  add(text: string): number {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: with that much room the text cannot be cut short.
    const most = 3 * text.length;
    if (this.used + most > this.chunk.length) this.seal(most);
    this.used += this.chunk.write(text, this.used);
    return this.sealedBytes + this.used;
  }

  /** The bytes gathered so far, in order; the next text starts a new chunk. */
  take(): Buffer[] {
    this.seal(0);
    const taken = this.sealed;
    this.sealed = [];
    this.sealedBytes = 0;
    return taken;
  }

  /** Sets the gathered bytes aside and starts a chunk with room for at least `room` bytes. */
  private seal(room: number): void {
    if (this.used > 0) {
      this.sealed.push(this.chunk.subarray(0, this.used));
      this.sealedBytes += this.used;
    }
    if (this.used > 0 || room > this.chunk.length) this.chunk = Buffer.allocUnsafe(Math.max(this.chunkBytes, room));
    this.used = 0;
  }
}
