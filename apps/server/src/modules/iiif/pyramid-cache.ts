import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  fileHandleReader,
  readTiffStructure,
  type ByteReader,
  type TiffPage,
  type TiffStructure,
} from '../../imaging/index.ts';
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
  /** Whether the local file was deleted meanwhile (it keeps its disk space while open); absent without local files. */
  deleted?(): Promise<boolean>;
  close(): Promise<void>;
}

const MAX_OPEN = 64;
/** How often each process looks whether the files it keeps open were deleted (an image deleted, a pyramid replaced). */
export const DELETED_CHECK_MS = 10_000;
/** A request that took a pyramid before it left the cache may still be reading it: it is closed this much later. */
const EVICTED_CLOSE_MS = 30_000;
const DELETED_CLOSE_MS = 5_000;

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
 * so an entry never goes stale; it is closed when it falls out of use, or within `checkMs` (and a
 * few seconds) of its file's deletion by any process: an open file keeps its disk space.
 */
export function createPyramidCache(deps: { blobs: BlobStore; cacheDir: string; maxOpen?: number; checkMs?: number }) {
  const maxOpen = deps.maxOpen ?? MAX_OPEN;
  const open = new Map<string, Promise<OpenPyramid>>();
  /** The pyramids of `open` that have finished opening, for answers that cannot wait (see `peek`). */
  const ready = new WeakMap<Promise<OpenPyramid>, OpenPyramid>();

  function closeLater(entry: Promise<OpenPyramid>, delayMs: number): void {
    setTimeout(() => void entry.then((pyramid) => pyramid.close()).catch(() => {}), delayMs).unref();
  }

  async function dropDeleted(): Promise<void> {
    for (const [key, entry] of [...open]) {
      const pyramid = await entry.catch(() => null);
      if (!(await pyramid?.deleted?.().catch(() => false))) continue;
      if (open.get(key) !== entry) continue;
      open.delete(key);
      closeLater(entry, DELETED_CLOSE_MS);
    }
  }
  let checking = false;
  const deletionCheck = setInterval(() => {
    if (checking) return;
    checking = true;
    void dropDeleted().finally(() => (checking = false));
  }, deps.checkMs ?? DELETED_CHECK_MS).unref();

  async function openPyramid(key: string): Promise<OpenPyramid> {
    const local = await deps.blobs.localPath?.(key);
    let reader: ByteReader;
    let readInto: OpenPyramid['readInto'];
    let close = async () => {};
    let deleted: OpenPyramid['deleted'];
    let downloaded: Promise<string> | undefined;
    let structure: TiffStructure;
    try {
      if (local != null) {
        const handle = await fs.open(local, 'r');
        close = () => handle.close();
        reader = fileHandleReader(handle, (await handle.stat()).size);
        readInto = async (buffer, offset, length, position) =>
          (await handle.read(buffer, offset, length, position)).bytesRead;
        deleted = async () => (await handle.stat()).nlink === 0;
      } else {
        const stat = await deps.blobs.stat(key);
        if (stat == null) throw new Error(`pyramid ${key} is missing from storage`);
        reader = blobReader(deps.blobs, key, stat.size);
      }
      structure = await readTiffStructure(reader);
    } catch (error) {
      // A file that is no TIFF (the zip of a DICOM upload, looked at as an original) is never cached to be closed later.
      await close();
      throw error;
    }
    const levels = structure.pages.filter((page) => page.tileWidth != null);
    return {
      key,
      levels,
      pages: structure.pages,
      reader,
      readInto,
      close,
      deleted,
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

  function touch(key: string): Promise<OpenPyramid> | undefined {
    const cached = open.get(key);
    if (cached != null) {
      open.delete(key);
      open.set(key, cached);
    }
    return cached;
  }

  return {
    /** The pyramid when it is open already, or undefined: the same entry `get` would give, without a promise. */
    peek(key: string): OpenPyramid | undefined {
      const cached = touch(key);
      return cached == null ? undefined : ready.get(cached);
    },

    get(key: string): Promise<OpenPyramid> {
      const cached = touch(key);
      if (cached != null) return cached;
      const opening = openPyramid(key);
      // A failed open is not cached: the next request tries again.
      opening.then((pyramid) => ready.set(opening, pyramid)).catch(() => open.delete(key));
      open.set(key, opening);
      if (open.size > maxOpen) {
        const [oldestKey, oldest] = open.entries().next().value!;
        open.delete(oldestKey);
        closeLater(oldest, EVICTED_CLOSE_MS);
      }
      return opening;
    },

    async closeAll(): Promise<void> {
      clearInterval(deletionCheck);
      const all = [...open.values()];
      open.clear();
      await Promise.allSettled(all.map(async (pyramid) => (await pyramid).close()));
    },
  };
}

export type PyramidCache = ReturnType<typeof createPyramidCache>;
