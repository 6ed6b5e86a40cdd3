import path from 'node:path';
import type { ConvertContext } from './context.ts';
import { UnsupportedImageError } from './errors.ts';
import {
  aperioAssociatedPages,
  ndpiMacroPage,
  readStrip,
  writeAssociatedPage,
  writeAssociatedStrip,
} from './associated-pages.ts';
import { FLAT_LAYER, type AssociatedPicture } from './layers.ts';
import { checkDimensions } from './limits.ts';
import { ndpiThumbnailLevel } from './ndpi-levels.ts';
import { THUMBNAIL_SIZE, writeThumbnail, writeThumbnailOf } from './pyramid.ts';
import { parseTiffDateTime, resolutionFromMpp, resolutionFromTiff } from './resolution.ts';
import type { TiffStructure } from './tiff-structure.ts';
import type { ConvertedImage } from './types.ts';
import { SOURCE_NAME, vips, writeVipsPyramid } from './vips-cli.ts';
import { headerNumber, parseVipsHeader, type VipsHeader } from './vips-header.ts';

/** Header of the linked source as vips sees it; `vips-loader` tells whether OpenSlide claims the file. */
export async function readVipsHeader(context: ConvertContext, file = SOURCE_NAME): Promise<VipsHeader> {
  return parseVipsHeader((await vips(context, 'vipsheader', ['-a', file])).stdout);
}

/** The slide as OpenSlide reads it, in vips' own format (pixels and OpenSlide's properties). */
const OPENED_NAME = 'opened.v';

/**
 * A tiled TIFF whose image is smaller than one of its tiles (16×16 px in one 64-px tile, one pixel
 * wide): libvips' TIFF loader refuses it ("tile size out of range") while OpenSlide reads it. It
 * is read through OpenSlide once, into a file as small as the image, and converted from there.
 */
export async function convertSmallSlide(context: ConvertContext, structure: TiffStructure): Promise<ConvertedImage> {
  await vips(context, 'vips', ['openslideload', SOURCE_NAME, OPENED_NAME, '--rgb']);
  return convertWithOpenSlide(context, structure, readVipsHeader(context, OPENED_NAME), OPENED_NAME);
}

/**
 * Slides OpenSlide reads: levels come from OpenSlide (an Aperio file's page order is not its level
 * order). The pyramid, the header and the side pictures are made at the same time; all three must
 * succeed. The file's own dimensions were checked against the limits before (checkTiffStructure).
 */
export async function convertWithOpenSlide(
  context: ConvertContext,
  structure: TiffStructure,
  headerRead: Promise<VipsHeader>,
  input = `${SOURCE_NAME}[rgb]`,
): Promise<ConvertedImage> {
  const opened = input === OPENED_NAME;
  const thumbnailLevel = opened ? null : ndpiThumbnailLevel(structure, THUMBNAIL_SIZE);
  const [pyramid, associatedResult, headerResult, earlyThumbnail] = await Promise.allSettled([
    writeVipsPyramid(context, input),
    sidePictures(context, structure),
    headerRead,
    thumbnailLevel &&
      readStrip(context, thumbnailLevel.page).then((jpeg) => writeThumbnailOf(context, jpeg, 0, thumbnailLevel)),
  ]);
  // The header's failure explains the others (OpenSlide cannot read the file), so it is reported first.
  if (headerResult.status === 'rejected') throw headerResult.reason;
  if (pyramid.status === 'rejected') throw pyramid.reason;
  if (associatedResult.status === 'rejected') throw associatedResult.reason;
  if (earlyThumbnail.status === 'rejected') throw earlyThumbnail.reason;
  const header = headerResult.value;
  if (header.get('vips-loader') !== 'openslideload')
    throw new UnsupportedImageError('OpenSlide does not recognise this slide');
  const pyramidPath = pyramid.value;
  const associated = associatedResult.value;
  const width = headerNumber(header, 'openslide.level[0].width') ?? headerNumber(header, 'width') ?? 0;
  const height = headerNumber(header, 'openslide.level[0].height') ?? headerNumber(header, 'height') ?? 0;
  checkDimensions(width, height, context.maxPixels);

  const firstPage = structure.pages[0];
  return {
    format: header.get('openslide.vendor') ?? 'openslide',
    width,
    height,
    resolution:
      resolutionFromMpp(headerNumber(header, 'openslide.mpp-x'), headerNumber(header, 'openslide.mpp-y')) ??
      (firstPage ? resolutionFromTiff(firstPage) : null),
    magnification:
      headerNumber(header, 'openslide.objective-power') ??
      headerNumber(header, 'aperio.AppMag') ??
      headerNumber(header, 'hamamatsu.SourceLens'),
    scannedIn: scanner(header),
    scannedAt: scanDate(header),
    layers: [{ layerNumber: 0, width, height, pyramidPath, metadata: FLAT_LAYER }],
    // libvips' TIFF loader refuses a pyramid smaller than its 512-px tile, so the thumbnail of such a slide comes from the opened pixels.
    thumbnailPath:
      earlyThumbnail.value ??
      (opened
        ? await writeThumbnailOf(context, path.join(context.workDir, OPENED_NAME))
        : await writeThumbnail(context, pyramidPath)),
    associated,
  };
}

/** Aperio's and Hamamatsu's side pictures, read by us: `vips openslideload --associated` crashes (see associated-pages.ts). */
async function sidePictures(context: ConvertContext, structure: TiffStructure): Promise<AssociatedPicture[]> {
  if (structure.pages[0]?.imageDescription?.startsWith('Aperio') === true) {
    return Promise.all(
      aperioAssociatedPages(structure).map(({ kind, page }) => writeAssociatedPage(context, kind, page)),
    );
  }
  const macro = structure.pages[0]?.ndpiMarker != null ? ndpiMacroPage(structure) : null;
  return macro ? [await writeAssociatedStrip(context, 'macro', macro)] : [];
}

function scanner(header: VipsHeader): string | null {
  const aperio = header.get('aperio.ScanScope ID')?.trim();
  if (aperio) return aperio;
  const model = [header.get('tiff.Make'), header.get('tiff.Model')]
    .map((v) => v?.trim())
    .filter(Boolean)
    .join(' ');
  return model || null;
}

/** Aperio writes Date as MM/DD/YY and Time as HH:MM:SS, with an optional "Time Zone" such as GMT-0500. */
function scanDate(header: VipsHeader): Date | null {
  const date = /^(\d{2})\/(\d{2})\/(\d{2,4})$/.exec(header.get('aperio.Date')?.trim() ?? '');
  const time = /^(\d{2}):(\d{2}):(\d{2})$/.exec(header.get('aperio.Time')?.trim() ?? '');
  if (date && time) {
    const year = Number(date[3]) < 100 ? 2000 + Number(date[3]) : Number(date[3]);
    const zone = /GMT([+-])(\d{2}):?(\d{2})/.exec(header.get('aperio.Time Zone') ?? '');
    const offsetMinutes = zone ? (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3])) : 0;
    const utc = Date.UTC(year, Number(date[1]) - 1, Number(date[2]), Number(time[1]), Number(time[2]), Number(time[3]));
    const parsed = new Date(utc - offsetMinutes * 60_000);
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  return parseTiffDateTime(header.get('tiff.DateTime'));
}
