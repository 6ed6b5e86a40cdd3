import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often a held conversion looks for its release file. */
const RELEASE_POLL_MS = 100;

/**
 * Waits until `time` (CONVERT_MIN_SECONDS: a slide viewed from its original while it converts is slowed down to
 * show it), or until the image is deleted.
 */
export async function holdUntil(time: number, signal: AbortSignal): Promise<void> {
  const wait = time - Date.now();
  if (wait <= 0) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, wait);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
  signal.throwIfAborted();
}

/**
 * Waits until a file named after the image appears in `folder` (CONVERT_HOLD), or until the image is deleted: a
 * test holds the hand-over exactly as long as it looks at the slide served from its original, and no longer.
 */
export async function holdUntilReleased(folder: string, imageId: string, signal: AbortSignal): Promise<void> {
  const release = path.join(folder, imageId);
  for (;;) {
    signal.throwIfAborted();
    if (
      await fs.access(release).then(
        () => true,
        () => false,
      )
    )
      return;
    await sleep(RELEASE_POLL_MS, undefined, { signal }).catch(() => undefined);
  }
}
