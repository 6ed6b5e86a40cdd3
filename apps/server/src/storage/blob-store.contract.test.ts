import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#test/free-port.ts';
import {
  BlobKeyError,
  BlobNotFoundError,
  BlobRangeError,
  BlobSizeMismatchError,
  type BlobStore,
} from './blob-store.ts';
import { createS3Client } from './s3-client.ts';
import { FilesystemBlobStore } from './filesystem-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';

const MB = 1024 * 1024;

/** Deterministic pseudo-random bytes produced chunk by chunk, never held whole in memory. */
function generated(size: number, options: { failAfter?: number } = {}): Readable {
  let sent = 0;
  let seed = 42;
  return new Readable({
    read() {
      if (options.failAfter !== undefined && sent >= options.failAfter) {
        this.destroy(new Error('client went away'));
        return;
      }
      if (sent >= size) {
        this.push(null);
        return;
      }
      const length = Math.min(256 * 1024, size - sent);
      const chunk = Buffer.alloc(Math.ceil(length / 4) * 4);
      for (let index = 0; index < chunk.length; index += 4) {
        seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
        chunk.writeUInt32LE(seed, index);
      }
      sent += length;
      this.push(chunk.subarray(0, length));
    },
  });
}

async function digest(stream: Readable): Promise<{ sha: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha: hash.digest('hex'), size };
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

async function keysOf(store: BlobStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys.sort();
}

interface Harness {
  store: BlobStore;
  stop(): Promise<void>;
}

async function startFilesystem(): Promise<Harness> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'blob-fs-'));
  return {
    store: new FilesystemBlobStore(path.join(dir, 'blobs')),
    stop: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

async function startS3(): Promise<Harness> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'blob-s3-'));
  const port = await freePort();
  const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory: dir });
  await server.run();
  const client = createS3Client({
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await client.send(new CreateBucketCommand({ Bucket: 'slides' }));
  // A prefix, so the suite also checks that keys are mapped in and out of it.
  const store = new S3BlobStore({ client, bucket: 'slides', prefix: 'tenant-1' });
  return {
    store,
    stop: async () => {
      store.close();
      await server.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

describe.each([
  { name: 'filesystem', start: startFilesystem },
  { name: 's3 (s3rver)', start: startS3 },
])('BlobStore contract: $name', ({ start }) => {
  let harness: Harness;
  let store: BlobStore;
  beforeAll(async () => {
    harness = await start();
    store = harness.store;
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it('round-trips a multi-MB stream (several multipart parts on S3)', async () => {
    const size = 12 * MB + 123;
    const expected = await digest(generated(size));
    expect(await store.put('images/1/original.svs', generated(size), { size })).toEqual({ size });
    expect(await digest(await store.get('images/1/original.svs'))).toEqual(expected);
    expect(await store.stat('images/1/original.svs')).toEqual({ size });
  });

  it('moves a finished local file in under a key (putFile), checking its size, and the file is gone', async () => {
    const folder = store.stagingFolder?.() ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'blob-staging-')));
    await fs.mkdir(folder, { recursive: true });
    const size = 6 * MB + 7;
    const file = path.join(folder, 'upload-1');
    await fs.writeFile(file, Buffer.alloc(size, 7));
    await expect(store.putFile('moved/short', file, { size: size + 1 })).rejects.toThrow(BlobSizeMismatchError);
    expect(await store.putFile('moved/a', file, { size })).toEqual({ size });
    await expect(fs.stat(file)).rejects.toThrow(/ENOENT/);
    expect(await digest(await store.get('moved/a'))).toEqual(await digest(Readable.from([Buffer.alloc(size, 7)])));
    expect(await keysOf(store, '')).not.toContainEqual(expect.stringMatching(/upload-1|staging/));
    expect(await keysOf(store, 'moved/')).toEqual(['moved/a']);
  });

  it('stores an empty body', async () => {
    expect(await store.put('empty/blob', Readable.from([]))).toEqual({ size: 0 });
    expect(await text(await store.get('empty/blob'))).toBe('');
  });

  it('leaves nothing under the key when the body errors half-way', async () => {
    await expect(store.put('images/2/cut.svs', generated(12 * MB, { failAfter: 7 * MB }))).rejects.toThrow(
      'client went away',
    );
    expect(await store.stat('images/2/cut.svs')).toBeNull();
    expect(await keysOf(store, 'images/2/')).toEqual([]);
  });

  it('keeps the previous blob when an overwrite fails, and replaces it when one succeeds', async () => {
    await store.put('overwrite/a', Readable.from([Buffer.from('first')]));
    await expect(store.put('overwrite/a', generated(6 * MB, { failAfter: MB }))).rejects.toThrow('client went away');
    expect(await text(await store.get('overwrite/a'))).toBe('first');
    await store.put('overwrite/a', Readable.from([Buffer.from('second, longer')]));
    expect(await text(await store.get('overwrite/a'))).toBe('second, longer');
    expect(await keysOf(store, 'overwrite/')).toEqual(['overwrite/a']);
  });

  it('rejects a body that ends short of or runs past its declared size, storing nothing', async () => {
    await expect(store.put('sized/short', generated(1000), { size: 2000 })).rejects.toThrow(BlobSizeMismatchError);
    await expect(store.put('sized/long', generated(6 * MB), { size: 2000 })).rejects.toThrow(BlobSizeMismatchError);
    expect(await keysOf(store, 'sized/')).toEqual([]);
  });

  it('reads inclusive byte ranges, clamping the end like S3', async () => {
    await store.put('ranges/digits', Readable.from([Buffer.from('0123456789')]), { contentType: 'text/plain' });
    expect(await text(await store.get('ranges/digits', { start: 2, end: 5 }))).toBe('2345');
    // Not { start: 0, end: 0 }: s3rver 3 ignores an end of 0 and sends everything (real S3 does not).
    expect(await text(await store.get('ranges/digits', { start: 0, end: 1 }))).toBe('01');
    expect(await text(await store.get('ranges/digits', { start: 9, end: 9 }))).toBe('9');
    expect(await text(await store.get('ranges/digits', { start: 7, end: 100 }))).toBe('789');
    await expect(store.get('ranges/digits', { start: 10, end: 12 })).rejects.toThrow(BlobRangeError);
    await expect(store.get('ranges/digits', { start: 5, end: 2 })).rejects.toThrow(BlobRangeError);
  });

  it('reads a range deep inside a large blob', async () => {
    const all = Buffer.concat(await generated(6 * MB).toArray());
    await store.put('ranges/large', Readable.from([all]));
    const start = 5 * MB - 10;
    const read = Buffer.concat(await (await store.get('ranges/large', { start, end: start + 99 })).toArray());
    expect(read.equals(all.subarray(start, start + 100))).toBe(true);
  });

  it('reports a missing key: get throws BlobNotFoundError, stat null, exists false', async () => {
    await expect(store.get('missing/key')).rejects.toThrow(BlobNotFoundError);
    await expect(store.get('missing/key', { start: 0, end: 1 })).rejects.toThrow(BlobNotFoundError);
    expect(await store.stat('missing/key')).toBeNull();
    expect(await store.exists('missing/key')).toBe(false);
  });

  it('deletes idempotently, one key or many', async () => {
    for (const key of ['del/a', 'del/b', 'del/c', 'del/d']) await store.put(key, Readable.from([Buffer.from(key)]));
    expect(await store.exists('del/a')).toBe(true);
    await store.delete('del/a');
    await store.delete('del/a');
    expect(await store.exists('del/a')).toBe(false);
    await store.deleteMany(['del/b', 'del/c', 'del/never-existed']);
    await store.deleteMany([]);
    expect(await keysOf(store, 'del/')).toEqual(['del/d']);
  });

  it('lists keys by plain string prefix', async () => {
    for (const key of ['list/12/a', 'list/12/sub/b', 'list/123/c', 'list/2/d', 'list-other']) {
      await store.put(key, Readable.from([Buffer.from('x')]));
    }
    expect(await keysOf(store, 'list/12/')).toEqual(['list/12/a', 'list/12/sub/b']);
    expect(await keysOf(store, 'list/12')).toEqual(['list/12/a', 'list/12/sub/b', 'list/123/c']);
    expect(await keysOf(store, 'list')).toEqual(['list-other', 'list/12/a', 'list/12/sub/b', 'list/123/c', 'list/2/d']);
    expect(await keysOf(store, 'nothing/here/')).toEqual([]);
    expect(await keysOf(store, '')).toContain('list/2/d');
  });

  const hostile = [
    '../x',
    '/abs',
    'a/../../b',
    'a/./b',
    'a//b',
    'a/',
    'nul\0byte',
    'back\\slash',
    '',
    'x'.repeat(2000),
  ].map((key) => [JSON.stringify(key.length > 40 ? `${key.slice(0, 10)}… (${key.length} chars)` : key), key]);

  it.each(hostile)('rejects the hostile key %s in every method', async (_label, key) => {
    await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(BlobKeyError);
    await expect(store.get(key)).rejects.toThrow(BlobKeyError);
    await expect(store.stat(key)).rejects.toThrow(BlobKeyError);
    await expect(store.exists(key)).rejects.toThrow(BlobKeyError);
    await expect(store.delete(key)).rejects.toThrow(BlobKeyError);
    await expect(store.deleteMany(['fine', key])).rejects.toThrow(BlobKeyError);
  });

  it('rejects hostile list prefixes', async () => {
    for (const prefix of ['../', '/abs', 'a/../', 'nul\0']) {
      await expect(keysOf(store, prefix)).rejects.toThrow(BlobKeyError);
    }
  });
});
