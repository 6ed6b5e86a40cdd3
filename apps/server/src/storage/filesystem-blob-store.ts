import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  BlobKeyError,
  BlobNotFoundError,
  BlobRangeError,
  BlobSizeMismatchError,
  type BlobRange,
  type BlobStore,
  type PutBlobOptions,
} from './blob-store.ts';
import { BatchedFileWriter } from './batched-file-writer.ts';
import { ByteCounter } from './blob-stream.ts';
import { assertBlobKey, assertBlobPrefix, assertBlobRange, isBlobKey } from './keys.ts';

function isErrnoException(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && 'code' in error && codes.includes(String(error.code));
}

/** S3 allows keys `a` and `a/b` side by side; a filesystem cannot have `a` as both a file and a folder. */
function asClash(error: unknown, key: string): unknown {
  return isErrnoException(error, 'EISDIR', 'ENOTDIR', 'EEXIST')
    ? new BlobKeyError(`blob key ${JSON.stringify(key)} clashes with a file or folder of another key`)
    : error;
}

/** The folder of files bound for putFile, inside the root so that they are renamed in; '~' is never in a key. */
const STAGING = '~staging';

/** A put's temporary file: the key's path, '.~' and 16 hex digits. */
const TEMPORARY = /\.~[0-9a-f]{16}$/;
/**
 * A put touches its temporary file this often, even while its body stalls, so that a temporary
 * untouched for TEMPORARY_LAPSE_MS has no live writer in any process sharing the folder.
 */
export const TEMPORARY_HEARTBEAT_MS = 5_000;
export const TEMPORARY_LAPSE_MS = 30_000;

function isInside(root: string, target: string): boolean {
  return target.startsWith(root + path.sep);
}

/** Blobs as files under one root folder; the default store, and the one a single machine uses. */
export class FilesystemBlobStore implements BlobStore {
  readonly root: string;
  #realRoot: Promise<string> | undefined;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  async put(key: string, body: Readable, options: PutBlobOptions = {}): Promise<{ size: number }> {
    const target = this.#lexicalPath(key);
    // Same folder as the target so the final rename is atomic; '~' never occurs in a key, so list() skips it.
    const temporary = `${target}.~${randomBytes(8).toString('hex')}`;
    // Created before the body is read: once it is there, no deletion of the folder's last file removes the folder.
    await this.#inFolder(key, target, () => fs.writeFile(temporary, '', { flag: 'wx' })).catch((error: unknown) => {
      throw asClash(error, key);
    });
    const counter = new ByteCounter(options.size);
    // flush: fsync before 'finish', so after a crash the key holds the old blob or the whole new one, never a stub.
    const writer = new BatchedFileWriter(temporary, { flags: 'r+', flush: true });
    const heartbeat = setInterval(() => {
      const now = new Date();
      fs.utimes(temporary, now, now).catch(() => undefined);
    }, TEMPORARY_HEARTBEAT_MS);
    try {
      await pipeline(body, counter, writer);
      await fs.rename(temporary, target);
    } catch (error) {
      // A body that fails at once (a refused upload) can end the pipeline before the file is even open;
      // the stream still opens and closes it afterwards, so removing it first would leave it behind.
      if (!writer.closed) await new Promise<void>((resolve) => writer.once('close', () => resolve()));
      await fs.unlink(temporary).catch((cleanup: unknown) => {
        if (!isErrnoException(cleanup, 'ENOENT')) throw cleanup;
      });
      await this.#removeEmptyFolders(path.dirname(temporary));
      throw asClash(error, key);
    } finally {
      clearInterval(heartbeat);
    }
    return { size: counter.bytes };
  }

  /**
   * fsync, then rename: the bytes are written once, by whoever wrote the file. Across filesystems (a staging
   * file elsewhere) it falls back to a streamed put.
   */
  async putFile(key: string, file: string, options: PutBlobOptions = {}): Promise<{ size: number }> {
    const target = this.#lexicalPath(key);
    const handle = await fs.open(file, 'r');
    let size: number;
    try {
      size = (await handle.stat()).size;
      if (options.size !== undefined && size !== options.size) {
        throw new BlobSizeMismatchError(`file holds ${size} of the declared ${options.size} bytes`);
      }
      // Durable before it shows under the key, as put's flush makes it.
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await this.#inFolder(key, target, () => fs.rename(file, target));
    } catch (error) {
      if (!isErrnoException(error, 'EXDEV')) throw asClash(error, key);
      await this.put(key, createReadStream(file), { ...options, size });
      await fs.unlink(file);
    }
    return { size };
  }

  stagingFolder(): string {
    return path.join(this.root, STAGING);
  }

  /**
   * Deletes the temporary files of puts whose process died (a killed upload or conversion) under
   * `prefix` (a folder, '' for all): those untouched for `lapseMs`. Returns them, and the
   * temporaries still fresh, which may belong to a dead process too and are worth a later look.
   */
  async removeStaleTemporaries(
    prefix: string,
    lapseMs = TEMPORARY_LAPSE_MS,
    now = Date.now(),
  ): Promise<{ removed: string[]; fresh: string[] }> {
    assertBlobPrefix(prefix);
    const removed: string[] = [];
    const fresh: string[] = [];
    for await (const file of this.#temporaries(path.join(this.root, prefix))) {
      const stats = await fs.lstat(file).catch(() => null);
      if (stats == null) continue;
      if (now - stats.mtimeMs < lapseMs) {
        fresh.push(path.relative(this.root, file));
        continue;
      }
      await fs.unlink(file).catch((error: unknown) => {
        if (!isErrnoException(error, 'ENOENT')) throw error;
      });
      await this.#removeEmptyFolders(path.dirname(file));
      removed.push(path.relative(this.root, file));
    }
    return { removed, fresh };
  }

  async *#temporaries(folder: string): AsyncGenerator<string> {
    let directory;
    try {
      directory = await fs.opendir(folder);
    } catch (error) {
      if (isErrnoException(error, 'ENOENT', 'ENOTDIR')) return;
      throw error;
    }
    // Dirent types do not follow symlinks, so nothing outside the root is visited.
    for await (const entry of directory) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) yield* this.#temporaries(full);
      else if (entry.isFile() && TEMPORARY.test(entry.name)) yield full;
    }
  }

  async get(key: string, range?: BlobRange): Promise<Readable> {
    if (range) assertBlobRange(range);
    const file = await this.#existingPath(key);
    if (file === null) throw new BlobNotFoundError(key);
    // Opened before returning, so a missing key is an error of get() and not of the stream.
    const handle = await fs.open(file, 'r').catch((error: unknown) => {
      throw isErrnoException(error, 'ENOENT') ? new BlobNotFoundError(key) : error;
    });
    try {
      if (!range) return handle.createReadStream();
      const { size } = await handle.stat();
      if (range.start >= size) throw new BlobRangeError(`range starts at ${range.start} past the ${size} bytes`);
      return handle.createReadStream({ start: range.start, end: Math.min(range.end, size - 1) });
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const file = await this.#existingPath(key);
    if (file === null) return null;
    const stats = await fs.stat(file).catch((error: unknown) => {
      if (isErrnoException(error, 'ENOENT')) return null;
      throw error;
    });
    return stats?.isFile() ? { size: stats.size } : null;
  }

  /** The file itself, for readers that need random access (vips, the tile server) without a copy. */
  async localPath(key: string): Promise<string | null> {
    return this.#existingPath(key);
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    const target = this.#lexicalPath(key);
    try {
      await this.#assertRealInside(key, path.dirname(target));
      // unlink removes a symlink itself, never what it points to.
      await fs.unlink(target);
    } catch (error) {
      if (!isErrnoException(error, 'ENOENT')) throw error;
      return;
    }
    await this.#removeEmptyFolders(path.dirname(target));
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    keys.forEach(assertBlobKey);
    for (const key of keys) await this.delete(key);
  }

  async *list(prefix: string): AsyncIterable<string> {
    assertBlobPrefix(prefix);
    // Walk only the deepest folder the prefix names; the rest of the prefix filters names inside it.
    const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    try {
      await this.#assertRealInside(prefix, path.join(this.root, folder));
    } catch (error) {
      if (isErrnoException(error, 'ENOENT', 'ENOTDIR')) return;
      throw error;
    }
    yield* this.#walk(folder, prefix);
  }

  async *#walk(folder: string, prefix: string): AsyncGenerator<string> {
    let directory;
    try {
      directory = await fs.opendir(path.join(this.root, folder));
    } catch (error) {
      if (isErrnoException(error, 'ENOENT', 'ENOTDIR')) return;
      throw error;
    }
    // Dirent types do not follow symlinks, so a linked folder or file is never listed.
    for await (const entry of directory) {
      const key = folder + entry.name;
      if (entry.isDirectory() && (key + '/').startsWith(prefix.slice(0, key.length + 1))) {
        yield* this.#walk(key + '/', prefix);
      } else if (entry.isFile() && key.startsWith(prefix) && isBlobKey(key)) {
        yield key;
      }
    }
  }

  #lexicalPath(key: string): string {
    assertBlobKey(key);
    const target = path.resolve(this.root, key);
    // Redundant with the key rules, kept as the last line of defence against writing outside the root.
    if (!isInside(this.root, target)) throw new BlobKeyError(`blob key ${JSON.stringify(key)} leaves the store`);
    return target;
  }

  /** The file behind `key` after resolving symlinks, or null when it does not exist. */
  async #existingPath(key: string): Promise<string | null> {
    const target = this.#lexicalPath(key);
    try {
      const real = await fs.realpath(target);
      if (!isInside(await this.#getRealRoot(), real)) {
        throw new BlobKeyError(`blob key ${JSON.stringify(key)} resolves outside the store`);
      }
      return real;
    } catch (error) {
      if (isErrnoException(error, 'ENOENT', 'ENOTDIR')) return null;
      throw error;
    }
  }

  /**
   * Runs `action` (which creates an entry next to `target`) once target's folder exists. A deletion of the folder's
   * last file may remove the folder in between (#removeEmptyFolders), so a missing folder is made again.
   */
  async #inFolder<T>(key: string, target: string, action: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#makeFolder(key, path.dirname(target));
        return await action();
      } catch (error) {
        if (!isErrnoException(error, 'ENOENT') || attempt === 5) throw error;
      }
    }
  }

  /** Removes `folder` and then its parents while they are empty, up to the root: a deleted image leaves no folders. */
  async #removeEmptyFolders(folder: string): Promise<void> {
    const staging = this.stagingFolder();
    for (let current = folder; isInside(this.root, current); current = path.dirname(current)) {
      if (current === staging || isInside(staging, current)) return;
      try {
        await fs.rmdir(current);
      } catch {
        // Not empty (or no longer there, or not a folder): nothing above it is empty either.
        return;
      }
    }
  }

  /** mkdir -p, but only after checking that the deepest existing ancestor is really inside the root. */
  async #makeFolder(key: string, folder: string): Promise<void> {
    let existing = folder;
    for (;;) {
      try {
        await this.#assertRealInside(key, existing);
        break;
      } catch (error) {
        if (!isErrnoException(error, 'ENOENT') || existing === this.root) throw error;
        existing = path.dirname(existing);
      }
    }
    if (existing !== folder) await fs.mkdir(folder, { recursive: true });
  }

  async #assertRealInside(key: string, folder: string): Promise<void> {
    const realRoot = await this.#getRealRoot();
    const real = await fs.realpath(folder);
    if (real !== realRoot && !isInside(realRoot, real)) {
      throw new BlobKeyError(`blob key ${JSON.stringify(key)} resolves outside the store`);
    }
  }

  #getRealRoot(): Promise<string> {
    this.#realRoot ??= fs.mkdir(this.root, { recursive: true }).then(() => fs.realpath(this.root));
    return this.#realRoot;
  }
}
