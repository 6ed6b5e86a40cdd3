import type { Metadata } from 'sharp';
import { sharp } from './sharp-setup.ts';
import { remainingMs, type ConvertContext } from './context.ts';
import { eightBitPage } from './eight-bit.ts';
import { exifDate } from './exif.ts';
import { FLAT_LAYER, imageSize } from './layers.ts';
import { checkDimensions, WHOLE_DECODE_SHARE } from './limits.ts';
import { writeSharpPyramid, writeThumbnail } from './pyramid.ts';
import { resolutionFromTiff, parseTiffDateTime, type Resolution } from './resolution.ts';
import type { TiffPage, TiffStructure } from './tiff-structure.ts';
import { linkSource, SOURCE_NAME, writeVipsPyramid } from './vips-cli.ts';
import type { ConvertedImage } from './types.ts';

const WHITE = { r: 255, g: 255, b: 255 };

/** JPEG and PNG: orientation from EXIF applied, transparency flattened onto white (slides are backlit). */
export async function convertRaster(context: ConvertContext, format: 'jpeg' | 'png'): Promise<ConvertedImage> {
  const maxPixels = Math.floor(context.maxPixels / WHOLE_DECODE_SHARE);
  // sharp checks the limit from the header before decoding; our own check says why in the image's error.
  const open = () => sharp(context.sourcePath, { limitInputPixels: maxPixels, failOn: 'error' });
  // The header alone, unlimited, so our own check gives the reason (-100) rather than sharp's generic error.
  const metadata = await sharp(context.sourcePath, { limitInputPixels: false }).metadata();
  checkDimensions(metadata.width, metadata.height, maxPixels, format === 'png' ? 'PNG' : 'JPEG');
  remainingMs(context);
  const pyramidPath = await writeSharpPyramid(
    open().rotate().flatten({ background: WHITE }).toColourspace('srgb'),
    context,
    0,
  );
  const { width, height } = await imageSize(pyramidPath);
  return {
    format,
    width,
    height,
    resolution: densityResolution(metadata),
    magnification: null,
    scannedIn: null,
    scannedAt: await exifDate(metadata.exif),
    layers: [{ layerNumber: 0, width, height, pyramidPath, metadata: FLAT_LAYER }],
    thumbnailPath: await writeThumbnail(context, pyramidPath),
    associated: [],
  };
}

function densityResolution(metadata: Metadata): Resolution | null {
  // Without a declared unit the density is only an aspect ratio (JFIF units 0), not a physical size.
  if (!metadata.density || metadata.resolutionUnit === undefined) return null;
  const dpc = metadata.density / 2.54;
  return { x: dpc, y: dpc, unit: 'dpc' };
}

/** 8-bit grey or RGB without alpha: what the vips command line tiles as it is, the pixels sharp would give. */
function plainEightBit(page: TiffPage): boolean {
  return (
    (page.samplesPerPixel === 1 || page.samplesPerPixel === 3) &&
    page.bitsPerSample.every((bits) => bits === 8) &&
    page.sampleFormat.every((format) => format === 1) &&
    (page.photometric === 1 || page.photometric === 2 || page.photometric === 6)
  );
}

/**
 * A TIFF neither OpenSlide nor OME describes: its first page is the image; later pages are previews or masks.
 * Plain 8-bit pages go through the vips command line when it is installed (faster JPEG codec), others
 * through sharp, which also stretches 16-bit and signed data.
 */
export async function convertPlainTiff(
  context: ConvertContext,
  structure: TiffStructure,
  vipsInstalled: boolean,
): Promise<ConvertedImage> {
  const [page] = structure.pages;
  if (!page) throw new Error('TIFF has no pages');
  let pyramidPath: string;
  if (vipsInstalled && plainEightBit(page)) {
    await linkSource(context);
    pyramidPath = await writeVipsPyramid(context, SOURCE_NAME);
  } else {
    pyramidPath = await writeSharpPyramid(await eightBitPage(context, 0), context, 0);
  }
  return {
    format: 'tiff',
    width: page.width,
    height: page.height,
    resolution: resolutionFromTiff(page),
    magnification: null,
    scannedIn: tiffText(page.tags.get(271)?.value, page.tags.get(272)?.value),
    scannedAt: parseTiffDateTime(page.dateTime),
    layers: [{ layerNumber: 0, width: page.width, height: page.height, pyramidPath, metadata: FLAT_LAYER }],
    thumbnailPath: await writeThumbnail(context, pyramidPath),
    associated: [],
  };
}

/** TIFF Make (271) and Model (272) name the instrument that wrote the file. */
function tiffText(...values: unknown[]): string | null {
  const text = values.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
  return text.length > 0 ? text.join(' ') : null;
}
