import { TIFF_TAG, type TiffPage, type TiffStructure } from './tiff-structure.ts';

/** libjpeg decodes no wider or higher: NDPI's largest levels say width 0 in their JPEG frame past it. */
const JPEG_DECODABLE = 65_500;

/** The pyramid levels of an NDPI's focal plane 0, the plane OpenSlide (and so our conversion) reads; largest first. */
export function ndpiPlaneLevels(pages: readonly TiffPage[]): TiffPage[] {
  return pages.filter((page) => {
    const lens = page.tags.get(TIFF_TAG.NdpiSourceLens)?.value;
    const z = page.tags.get(TIFF_TAG.NdpiZOffset)?.value;
    return Array.isArray(lens) && lens[0]! > 0 && (!Array.isArray(z) || z[0] === 0);
  });
}

export interface ThumbnailLevel {
  page: TiffPage;
  /** The thumbnail's size, from level 0's proportions (a level's own are rounded). */
  width: number;
  height: number;
}

/**
 * The smallest level, in one JPEG strip, that still covers a `size`-px thumbnail of the whole slide: decoded on its
 * own while the pyramid is written, so the thumbnail no longer waits for the pyramid.
 */
export function ndpiThumbnailLevel(structure: TiffStructure, size: number): ThumbnailLevel | null {
  const levels = ndpiPlaneLevels(structure.pages);
  const base = levels[0];
  if (!base) return null;
  const scale = Math.min(1, size / base.width, size / base.height);
  const width = Math.max(1, Math.round(base.width * scale));
  const height = Math.max(1, Math.round(base.height * scale));
  const page = levels
    .filter(
      (level) =>
        level.width >= width &&
        level.height >= height &&
        level.width <= JPEG_DECODABLE &&
        level.height <= JPEG_DECODABLE &&
        level.stripOffsets.length === 1,
    )
    .at(-1);
  return page ? { page, width, height } : null;
}
