import type { Logger } from 'pino';
import type { BlobStore } from './blob-store.ts';
import { TEMPORARY_LAPSE_MS } from './filesystem-blob-store.ts';

/**
 * Removes the partial files of puts whose process was killed (an upload, a conversion's pyramid)
 * under `prefix`. Those touched too recently to tell (the process was killed just before this
 * one started) are looked at again once a live writer would have touched them.
 */
export async function sweepBlobTemporaries(blobs: BlobStore, log: Logger, prefix = ''): Promise<void> {
  const sweep = blobs.removeStaleTemporaries?.bind(blobs);
  if (sweep == null) return;
  const { removed, fresh } = await sweep(prefix);
  if (removed.length > 0) log.info({ removed }, 'removed partial files of interrupted writes');
  if (fresh.length === 0) return;
  setTimeout(() => {
    sweep(prefix)
      .then((again) => {
        if (again.removed.length > 0)
          log.info({ removed: again.removed }, 'removed partial files of interrupted writes');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'sweeping partial files failed'));
  }, TEMPORARY_LAPSE_MS + 1_000).unref();
}
