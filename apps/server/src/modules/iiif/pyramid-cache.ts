import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileHandleReader, readTiffStructure, type ByteReader, type TiffPage } from '../../imaging/index.ts';
import type { BlobStore } from '../../storage/blob-store.ts';

/** One converted pyramid, opened once: its TIFF structure parsed and its bytes readable by position. */
export interface OpenPyramid {
  key: string;
  /** Level 0 first, each half the size of the one before. */
  levels: TiffPage[];
  /** Every page of the file, in file order (an original's pyramid levels, label and macro among them). */
  pages: TiffPage[];
  reader: ByteReader;
  /**
   * Reads `length` bytes at `position` of a local pyramid straight into `buffer` at `offset`; returns the bytes
   * read. Absent for stores without local files. Lets a tile be assembled in one buffer, without a copy.
   */
  readInto?(buffer: Buffer, offset: number, length: number, position: number): Promise<number>;
  /** A local file with the pyramid, for decoders that want a path (sharp). */
  localPath(): Promise<string>;
  close(): Promise<void>;
}

const MAX_OPEN = 64;

async function streamToBuffer(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Positional reads through the store's ranged GET (S3 and any store without local files). */
function blobReader(blobs: BlobStore, key: string, size: number): ByteReader {
  return {
    size,
    async read(position, length) {
      if (length === 0 || position >= size) return Buffer.alloc(0);
      return streamToBuffer(await blobs.get(key, { start: position, end: position + length - 1 }));
    },
  };
}

/**
 * Keeps the most recently used pyramids open (parsing a TIFF's directories costs more than
 * serving a tile from it). Pyramid blobs never change under a key — a reprocess writes new keys —
 * so an entry never goes stale; it is only closed when it falls out of use.
 */
export function createPyramidCache(deps: { blobs: BlobStore; cacheDir: string; maxOpen?: number }) {
  const maxOpen = deps.maxOpen ?? MAX_OPEN;
  const open = new Map<string, Promise<OpenPyramid>>();

  async function openPyramid(key: string): Promise<OpenPyramid> {
    const local = await deps.blobs.localPath?.(key);
    let reader: ByteReader;
    let readInto: OpenPyramid['readInto'];
    let close = async () => {};
    let downloaded: Promise<string> | undefined;
    if (local != null) {
      const handle = await fs.open(local, 'r');
      reader = fileHandleReader(handle, (await handle.stat()).size);
      readInto = async (buffer, offset, length, position) =>
        (await handle.read(buffer, offset, length, position)).bytesRead;
      close = () => handle.close();
    } else {
      const stat = await deps.blobs.stat(key);
      if (stat == null) throw new Error(`pyramid ${key} is missing from storage`);
      reader = blobReader(deps.blobs, key, stat.size);
    }
    const structure = await readTiffStructure(reader);
    const levels = structure.pages.filter((page) => page.tileWidth != null);
    return {
      key,
      levels,
      pages: structure.pages,
      reader,
      readInto,
      close,
      localPath() {
        if (local != null) return Promise.resolve(local);
        downloaded ??= download(key);
        return downloaded;
      },
    };
  }

  /** A local copy for pyramids kept elsewhere (S3): made once, reused by every later request. */
  async function download(key: string): Promise<string> {
    const target = path.join(deps.cacheDir, key);
    if (await fs.stat(target).catch(() => null)) return target;
    await fs.mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.partial-${process.pid}`;
    await pipeline(await deps.blobs.get(key), createWriteStream(partial));
    await fs.rename(partial, target);
    return target;
  }

  return {
    get(key: string): Promise<OpenPyramid> {
      const cached = open.get(key);
      if (cached != null) {
        open.delete(key);
        open.set(key, cached);
        return cached;
      }
      const opening = openPyramid(key);
      // A failed open is not cached: the next request tries again.
      opening.catch(() => open.delete(key));
      open.set(key, opening);
      if (open.size > maxOpen) {
        const [oldestKey, oldest] = open.entries().next().value!;
        open.delete(oldestKey);
        // Requests that already hold it may still be reading: close it once they are surely done.
        setTimeout(() => void oldest.then((pyramid) => pyramid.close()).catch(() => {}), 30_000).unref();
      }
      return opening;
    },

    async closeAll(): Promise<void> {
      const all = [...open.values()];
      open.clear();
      await Promise.allSettled(all.map(async (pyramid) => (await pyramid).close()));
    },
  };
}

export type PyramidCache = ReturnType<typeof createPyramidCache>;
