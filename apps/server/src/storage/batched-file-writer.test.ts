import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchedFileWriter } from './batched-file-writer.ts';

describe('BatchedFileWriter', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'batched-writer-'));
  });
  afterEach(() => fs.rm(folder, { recursive: true, force: true }));

  const write = (writer: BatchedFileWriter, chunk: Buffer) =>
    new Promise<void>((resolve, reject) => writer.write(chunk, (error) => (error ? reject(error) : resolve())));

  it('writes a chunk at once when no write is under way, and what arrived during a write with one writev', async () => {
    const file = path.join(folder, 'batched');
    const writer = new BatchedFileWriter(file, { flags: 'wx', batchBytes: 1000 });
    const chunks = Array.from({ length: 5 }, () => randomBytes(300));
    // A slow sender: each chunk is on disk before the next comes, so a kill loses nothing already acknowledged.
    await write(writer, chunks[0]!);
    expect(writer.bytesWritten).toBe(300);
    expect((await fs.stat(file)).size).toBe(300);
    // A fast one: the chunks given while the first is being written go out together after it.
    const rest = chunks.slice(1).map((chunk) => write(writer, chunk));
    await Promise.all(rest);
    expect(writer.writes).toBe(3);
    writer.end();
    await new Promise((resolve) => writer.once('finish', resolve));
    expect(writer.bytesWritten).toBe(1500);
    expect(await fs.readFile(file)).toEqual(Buffer.concat(chunks));
  });

  it('writes into an existing file from `start`, keeping the bytes before it', async () => {
    const file = path.join(folder, 'resumed');
    const before = randomBytes(5000);
    await fs.writeFile(file, before.subarray(0, 3000));
    const after = [before.subarray(3000, 3100), before.subarray(3100)];
    const writer = new BatchedFileWriter(file, { flags: 'r+', start: 3000, batchBytes: 64, flush: true });
    await pipeline(Readable.from(after), writer);
    expect(writer.bytesWritten).toBe(2000);
    expect(await fs.readFile(file)).toEqual(before);
  });

  it('fails the stream when the file cannot be opened', async () => {
    const file = path.join(folder, 'taken');
    await fs.writeFile(file, 'x');
    await expect(
      pipeline(Readable.from([Buffer.from('y')]), new BatchedFileWriter(file, { flags: 'wx' })),
    ).rejects.toMatchObject({ code: 'EEXIST' });
  });
});
