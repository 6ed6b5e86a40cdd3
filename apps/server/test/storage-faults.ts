import { execFileSync } from 'node:child_process';
import { pipeline, Transform } from 'node:stream';
import type { BlobStore } from '../src/storage/blob-store.ts';

/** The error Node gives when a write fails for `code` (ENOSPC, EACCES…), as the OS reports it. */
export function systemError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: storage write failed, write`), { code, syscall: 'write' });
}

/**
 * Makes a blob store's writes fail as a full or unwritable disk does: `fail(code, afterBytes)` lets the
 * first bytes of every later put through to the real store, then errors with `code`; `heal()` ends it.
 * Reads and deletes always reach the real store.
 */
export class StorageFaults {
  #fault: { code: string; afterBytes: number } | null = null;

  fail(code: string, afterBytes = 0): void {
    this.#fault = { code, afterBytes };
  }

  heal(): void {
    this.#fault = null;
  }

  wrap(store: BlobStore): BlobStore {
    const put: BlobStore['put'] = (key, body, options) => {
      const fault = this.#fault;
      if (fault == null) return store.put(key, body, options);
      return store.put(
        key,
        pipeline(body, failAfter(fault.code, fault.afterBytes), () => {}),
        options,
      );
    };
    // A move that fails leaves the file where it was, as a failed fsync or rename does.
    const putFile: BlobStore['putFile'] = (key, file, options) => {
      const fault = this.#fault;
      return fault == null ? store.putFile(key, file, options) : Promise.reject(systemError(fault.code));
    };
    return new Proxy(store, {
      get(target, property) {
        if (property === 'put') return put;
        if (property === 'putFile') return putFile;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}

function failAfter(code: string, afterBytes: number): Transform {
  let passed = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const room = afterBytes - passed;
      if (room >= chunk.length) {
        passed += chunk.length;
        return callback(null, chunk);
      }
      if (room > 0) this.push(chunk.subarray(0, room));
      passed = afterBytes;
      callback(systemError(code));
    },
  });
}

/**
 * A tmpfs of `bytes` on `folder`: a real disk that fills up; `resize` grows it, as freeing space would.
 * Null where this process may not mount (not root, no CAP_SYS_ADMIN).
 */
export function mountTinyDisk(folder: string, bytes: number) {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', folder], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return {
    resize: (size: number) => execFileSync('mount', ['-o', `remount,size=${size}`, folder]),
    unmount: () => execFileSync('umount', ['-l', folder]),
  };
}
