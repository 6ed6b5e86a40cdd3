import { ndpiMacroPage, readStrip, writeAssociatedStrip } from './associated-pages.ts';
import type { ConvertContext } from './context.ts';
import { UnsupportedImageError } from './errors.ts';
import { FLAT_LAYER } from './layers.ts';
import { checkDimensions } from './limits.ts';
import { ndpiThumbnailLevel } from './ndpi-levels.ts';
import { convertWithOpenSlide, readVipsHeader } from './openslide-convert.ts';
import { THUMBNAIL_SIZE, writeThumbnail, writeThumbnailOf } from './pyramid.ts';
import { parseTiffDateTime, resolutionFromMpp, resolutionFromTiff } from './resolution.ts';
import type { FileRange } from './run-tool.ts';
import { TIFF_TAG, type TiffPage, type TiffStructure } from './tiff-structure.ts';
import type { ConvertedImage } from './types.ts';
import { writeVipsPyramid } from './vips-cli.ts';

/**
 * An NDPI whose level 0 is `jpeg`, a JPEG libjpeg decodes as OpenSlide reads it (see ndpiBaseJpeg): the pyramid is
 * made from that JPEG streamed to dzsave, which must decode it without a warning, and the metadata is read from the
 * first directory's tags as OpenSlide reads them, so no OpenSlide process runs at all. Where libjpeg finds fault,
 * the slide is converted through OpenSlide, which has the last word as it has on every other NDPI.
 */
export async function convertNdpiJpeg(
  context: ConvertContext,
  structure: TiffStructure,
  jpeg: FileRange,
): Promise<ConvertedImage> {
  const first = structure.pages[0]!;
  checkDimensions(first.width, first.height, context.maxPixels);
  const thumbnailLevel = ndpiThumbnailLevel(structure, THUMBNAIL_SIZE);
  const macro = ndpiMacroPage(structure);
  // The pyramid's dzsave is started first: it is the longest step, and every later start forks this process again.
  // libvips decodes a JPEG itself: none of its loadable modules is needed.
  const [pyramid, associated, earlyThumbnail] = await Promise.allSettled([
    writeVipsPyramid(context, 'stdin[fail-on=warning]', { stdin: jpeg, builtinOnly: true }),
    macro ? writeAssociatedStrip(context, 'macro', macro).then((picture) => [picture]) : Promise.resolve([]),
    thumbnailLevel &&
      readStrip(context, thumbnailLevel.page).then((strip) => writeThumbnailOf(context, strip, 0, thumbnailLevel)),
  ]);
  if (pyramid.status === 'rejected') {
    if (pyramid.reason instanceof UnsupportedImageError) {
      return convertWithOpenSlide(context, structure, readVipsHeader(context));
    }
    throw pyramid.reason;
  }
  if (associated.status === 'rejected') throw associated.reason;
  if (earlyThumbnail.status === 'rejected') throw earlyThumbnail.reason;
  const pyramidPath = pyramid.value;
  return {
    format: 'hamamatsu',
    width: first.width,
    height: first.height,
    resolution: resolutionFromMpp(mpp(first, 'x'), mpp(first, 'y')) ?? resolutionFromTiff(first),
    magnification: sourceLens(first),
    scannedIn: scanner(first),
    scannedAt: parseTiffDateTime(first.dateTime),
    layers: [{ layerNumber: 0, width: first.width, height: first.height, pyramidPath, metadata: FLAT_LAYER }],
    thumbnailPath: earlyThumbnail.value ?? (await writeThumbnail(context, pyramidPath)),
    associated: associated.value,
  };
}

/** OpenSlide's `openslide.mpp-x`/`-y` of an NDPI: 10,000 / the resolution, given only in pixels per centimetre. */
function mpp(page: TiffPage, axis: 'x' | 'y'): number | null {
  const resolution = axis === 'x' ? page.xResolution : page.yResolution;
  return page.resolutionUnit === 3 && resolution ? 10_000 / resolution : null;
}

/** OpenSlide's `openslide.objective-power` of an NDPI: its source lens (65421). */
function sourceLens(page: TiffPage): number | null {
  const lens = page.tags.get(TIFF_TAG.NdpiSourceLens)?.value;
  return Array.isArray(lens) && typeof lens[0] === 'number' && Number.isFinite(lens[0]) ? lens[0] : null;
}

/** `tiff.Make` and `tiff.Model` joined, as for any slide OpenSlide reads. */
function scanner(page: TiffPage): string | null {
  const text = (tag: number) => {
    const value = page.tags.get(tag)?.value;
    return typeof value === 'string' ? value.trim() : '';
  };
  return [text(TIFF_TAG.Make), text(TIFF_TAG.Model)].filter(Boolean).join(' ') || null;
}
