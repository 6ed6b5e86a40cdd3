import { Writable } from 'node:stream';

export type CountingSink = Writable & { bytes: number; lines: number };

/** A sink that counts bytes and lines, as a client saving the file would receive them. */
export function countingSink(): CountingSink {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      sink.bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) sink.lines++;
      done();
    },
  }) as CountingSink;
  sink.bytes = 0;
  sink.lines = 0;
  return sink;
}
