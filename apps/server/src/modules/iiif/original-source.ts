import { ndpiServedPages } from './original-ndpi.ts';
import { servedPages } from './original-ome.ts';
import { planOriginal, type OriginalPlan } from './original-plan.ts';
import type { OpenPyramid, PyramidCache } from './pyramid-cache.ts';

export interface OpenOriginal {
  original: OpenPyramid;
  /** Null when the original cannot be served tile by tile (it is converted first). */
  plan: OriginalPlan | null;
}

/** Originals kept open at once per process: each is one slide someone views while it converts. */
export const ORIGINALS_OPEN = 8;

async function planOf(original: OpenPyramid): Promise<OriginalPlan | null> {
  const pages =
    original.pages[0]?.ndpiMarker != null
      ? await ndpiServedPages(original.pages, original.reader)
      : await servedPages(original.pages, original.reader);
  return pages == null ? null : planOriginal(pages);
}

/**
 * Originals opened for serving before their pyramid exists: their TIFF directories parsed once and kept
 * in a small LRU (the pyramid cache's), their plan worked out once per opened file.
 */
export function createOriginalSource(originals: PyramidCache) {
  const plans = new WeakMap<OpenPyramid, Promise<OriginalPlan | null>>();
  return {
    async open(key: string): Promise<OpenOriginal> {
      const original = await originals.get(key);
      let plan = plans.get(original);
      if (plan === undefined) {
        plan = planOf(original);
        plans.set(original, plan);
      }
      return { original, plan: await plan };
    },
    closeAll: () => originals.closeAll(),
  };
}

export type OriginalSource = ReturnType<typeof createOriginalSource>;
