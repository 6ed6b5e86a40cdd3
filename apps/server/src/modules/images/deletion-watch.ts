import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { images } from '../../db/schema/index.ts';

/** How often a running conversion looks whether its image is still there. */
export const DELETION_CHECK_MS = 1000;

/** The reason a conversion is aborted with when its image (or its case) was deleted. */
export class ImageDeletedError extends Error {
  override name = 'ImageDeletedError';
}

/**
 * An AbortSignal that fires once the image's row is gone. The row is polled rather than a
 * notification awaited, so a deletion by any process (an API process, another machine) stops a
 * conversion however it happened (the image, its case, its group), and a database restart loses
 * nothing: a failed check is simply made again at the next tick.
 */
export function watchImageDeletion(db: Db, imageId: string, intervalMs = DELETION_CHECK_MS) {
  const controller = new AbortController();
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    db.select({ id: images.id })
      .from(images)
      .where(eq(images.id, imageId))
      .then(([row]) => {
        if (row != null) return;
        clearInterval(timer);
        controller.abort(new ImageDeletedError(`image ${imageId} was deleted during its conversion`));
      })
      .catch(() => undefined)
      .finally(() => (checking = false));
  }, intervalMs);
  return {
    signal: controller.signal,
    stop: () => clearInterval(timer),
  };
}
