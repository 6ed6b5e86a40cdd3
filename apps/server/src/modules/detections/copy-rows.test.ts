import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CopyRows } from './copy-rows.ts';

describe('rows for COPY', () => {
  it('hands on every row whole and in order, whatever their length and characters', async () => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        chunks.push(Buffer.from(chunk));
        setImmediate(done);
      },
    });
    const rows = new CopyRows(sink);
    const sent: string[] = [];
    let flushes = 0;
    for (let index = 0; index < 3_000; index += 1) {
      const row = `${index}\t{"Nucleus: Area µm^2":${index},"核":"${'x'.repeat(index % 300)}"}\n`;
      sent.push(row);
      if (rows.add(row)) {
        flushes += 1;
        await rows.flush();
      }
    }
    // A row longer than a whole chunk, of three-byte characters.
    const long = `${'核'.repeat(400_000)}\n`;
    sent.push(long);
    if (rows.add(long)) await rows.flush();
    sent.push('last\n');
    rows.add('last\n');
    await rows.end();
    expect(flushes).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(sent.join(''));
  });
});
