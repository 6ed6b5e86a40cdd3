import { declaredScale } from '../../imaging/index.ts';
import type { DicomOriginals } from './original-dicom-source.ts';
import { ndpiServedPages } from './original-ndpi.ts';
import { servedPages } from './original-ome.ts';
import { planOriginal, type OriginalPlan } from './original-plan.ts';
import { renderFromOriginal } from './original-render.ts';
import type { OpenPyramid, PyramidCache } from './pyramid-cache.ts';
import type { ServedOriginal } from './served-original.ts';

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
export function createOriginalSource(originals: PyramidCache, dicoms?: DicomOriginals) {
  const plans = new WeakMap<OpenPyramid, Promise<OriginalPlan | null>>();
  async function open(key: string): Promise<OpenOriginal> {
    const original = await originals.get(key);
    let plan = plans.get(original);
    if (plan === undefined) {
      plan = planOf(original);
      plans.set(original, plan);
    }
    return { original, plan: await plan };
  }
  return {
    /** A TIFF family original (SVS, NDPI, OME-TIFF, pyramidal TIFF) opened for serving. */
    open,
    /** Any original as it is served before its conversion (DICOM uploads too); null when it is converted first. */
    async served(key: string): Promise<ServedOriginal | null> {
      const dicom = await dicoms?.open(key);
      if (dicom != null) return dicom.served;
      const { original, plan } = await open(key);
      const first = original.pages[0];
      if (plan == null || first == null) return null;
      return {
        levels: plan.levels,
        scale: declaredScale(first),
        render: (request, tiles) => renderFromOriginal(original, plan, request, tiles),
      };
    },
    closeAll: () => Promise.all([originals.closeAll(), dicoms?.closeAll()]).then(() => undefined),
  };
}

export type OriginalSource = ReturnType<typeof createOriginalSource>;
