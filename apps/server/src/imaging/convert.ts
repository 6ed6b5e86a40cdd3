import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ConvertContext } from './context.ts';
import { classifyImagingError, UnsupportedImageError } from './errors.ts';
import { checkTiffStructure, DEFAULT_MAX_PIXELS } from './limits.ts';
import { convertDicom } from './dicom-convert.ts';
import { dicomZipInstances, zipHoldsDicom } from './dicom-zip.ts';
import { convertOmeTiff } from './ome-convert.ts';
import { isOmeXml, parseOmeXml } from './ome-xml.ts';
import { ndpiBaseJpeg } from './ndpi-levels.ts';
import { convertNdpiJpeg } from './ndpi-convert.ts';
import { convertSmallSlide, convertWithOpenSlide, readVipsHeader } from './openslide-convert.ts';
import { linkSource } from './vips-cli.ts';
import { convertPlainTiff, convertRaster } from './sharp-convert.ts';
import { sniffKind } from './sniff.ts';
import { readTiffStructure, type TiffPage, type TiffStructure } from './tiff-structure.ts';
import { detectImagingTools } from './tools.ts';
import { OPENSLIDE_MISSING_MESSAGE } from '@pathology/contract';
import type { ConvertedImage, ConvertOptions } from './types.ts';

export const VSI_NOT_SUPPORTED =
  'Olympus VSI conversion is not supported yet: no ETS reader was verified on a real file; the original is stored';
export const ISYNTAX_NOT_SUPPORTED =
  'Philips iSyntax cannot be converted: no open decoder exists; the original is stored';

/**
 * Detects the format by content, reads metadata and writes into workDir one 512-px JPEG-tiled pyramidal
 * BigTIFF per layer (`layer-<n>.tif`), `thumbnail.jpg` and `associated-<kind>.jpg`.
 */
export async function convertImage(options: ConvertOptions): Promise<ConvertedImage> {
  try {
    return await convertDetected(options);
  } catch (error) {
    throw classifyImagingError(error);
  }
}

async function convertDetected(options: ConvertOptions): Promise<ConvertedImage> {
  const context: ConvertContext = {
    sourcePath: options.sourcePath,
    workDir: options.workDir,
    deadline: Date.now() + options.timeoutMs,
    maxPixels: options.maxPixels ?? DEFAULT_MAX_PIXELS,
    niceness: options.niceness ?? 0,
    signal: options.signal,
  };
  const handle = await open(options.sourcePath, 'r');
  let structure: TiffStructure | null = null;
  let kind;
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    kind = sniffKind(head.subarray(0, bytesRead));
    // Hostile or damaged TIFFs are refused here, before vips or sharp open them.
    if (kind === 'tiff' || kind === 'bigtiff') structure = await readTiffStructure(handle);
  } finally {
    await handle.close();
  }

  switch (kind) {
    case null:
      throw new UnsupportedImageError(
        'Unrecognised image content: not a TIFF, JPEG, PNG or DICOM file, a VSI or DICOM zip, or an iSyntax file',
      );
    case 'zip':
      if (await zipHoldsDicom(context.sourcePath)) return convertDicomZip(context);
      throw new UnsupportedImageError(VSI_NOT_SUPPORTED);
    case 'dicom':
      return convertDicom(context, [{ file: context.sourcePath, name: path.basename(context.sourcePath) }]);
    case 'isyntax':
      throw new UnsupportedImageError(ISYNTAX_NOT_SUPPORTED);
    case 'jpeg':
    case 'png':
      return convertRaster(context, kind);
    case 'tiff':
    case 'bigtiff':
      if (!structure) throw new Error('TIFF structure missing');
      checkTiffStructure(structure, context.maxPixels);
      return convertTiff(context, structure);
  }
}

/** A zip of one slide's instances, read in place or extracted beside the outputs (frames are read by ranges). */
async function convertDicomZip(context: ConvertContext): Promise<ConvertedImage> {
  const folder = path.join(context.workDir, 'dicom-instances');
  try {
    return await convertDicom(context, await dicomZipInstances(context.sourcePath, folder));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function convertTiff(context: ConvertContext, structure: TiffStructure): Promise<ConvertedImage> {
  const first = structure.pages[0];
  if (!first) throw new UnsupportedImageError('TIFF has no pages');
  if (isOmeXml(first.imageDescription)) {
    const ome = parseOmeXml(first.imageDescription);
    if (ome) return convertOmeTiff(context, structure, ome);
  }
  const vendorSlide = first.imageDescription?.startsWith('Aperio') === true || first.ndpiMarker !== null;
  const tools = await detectImagingTools();
  if (vendorSlide && !tools.openslide) throw new UnsupportedImageError(OPENSLIDE_MISSING_MESSAGE);
  if (tools.openslide && first.tileWidth !== null && smallerThanItsTile(first)) {
    await linkSource(context);
    return convertSmallSlide(context, structure);
  }
  // Only tiled TIFFs can be whole-slide images; a stripped TIFF is a plain picture whatever OpenSlide thinks.
  if (tools.openslide && vendorSlide) {
    await linkSource(context);
    const ndpiJpeg = await ndpiBaseJpeg(context.sourcePath, structure);
    if (ndpiJpeg) return convertNdpiJpeg(context, structure, ndpiJpeg);
    // Aperio and Hamamatsu files are OpenSlide's whatever else: its header is read while the pyramid is written.
    return convertWithOpenSlide(context, structure, readVipsHeader(context));
  }
  if (tools.openslide && first.tileWidth !== null) {
    await linkSource(context);
    const header = await readVipsHeader(context);
    if (header.get('vips-loader') === 'openslideload') {
      return convertWithOpenSlide(context, structure, Promise.resolve(header));
    }
  }
  return convertPlainTiff(context, structure, tools.vips);
}

/** Level 0 narrower or lower than one tile: libvips' TIFF loader refuses such files. */
function smallerThanItsTile(page: TiffPage): boolean {
  return (page.tileWidth ?? 0) > page.width || (page.tileHeight ?? 0) > page.height;
}
