import { rm } from 'node:fs/promises';
import path from 'node:path';
import { remainingMs, type ConvertContext } from './context.ts';
import { baseFromFrames } from './dicom-convert-base.ts';
import { frameImage, InstanceFiles, levelTiles } from './dicom-convert-frames.ts';
import { dicomScale } from './dicom-original.ts';
import { readDicomInstance, type DicomInstance } from './dicom-read.ts';
import type { ZippedInstance } from './dicom-zip.ts';
import { assembleSlide, type AssociatedFlavour, type DicomSlide } from './dicom-read-slide.ts';
import { UnsupportedImageError } from './errors.ts';
import { FLAT_LAYER, type AssociatedPicture } from './layers.ts';
import { checkDimensions } from './limits.ts';
import { JPEG_QUALITY, writeAtomically, writeThumbnail } from './pyramid.ts';
import { writeJpegTiledTiff } from './tiled-tiff-writer.ts';
import type { ConvertedImage } from './types.ts';
import { writeVipsPyramid } from './vips-cli.ts';

/** The base level as one JPEG-tiled TIFF with the frames' own tile size, which dzsave then cuts into our pyramid. */
const LEVEL_NAME = 'dicom-level-0.tif';

const ASSOCIATED_KINDS: Record<AssociatedFlavour, AssociatedPicture['kind']> = {
  LABEL: 'label',
  OVERVIEW: 'macro',
  THUMBNAIL: 'thumbnail',
};

/**
 * A DICOM whole-slide image from its instances (files on local disk, `name` as the user knows each).
 * The pyramid is made from the largest VOLUME level alone, whatever the other levels' ratios: its
 * frames are decoded one by one into a tiled TIFF of the same grid, which goes the way of any
 * plain pyramid TIFF (vips dzsave into 512-px tiles). Where its frames are our 512-px tiles, the
 * pyramid's full-resolution tiles are those frames as they are (baseFromFrames says which).
 */
export async function convertDicom(context: ConvertContext, sources: ZippedInstance[]): Promise<ConvertedImage> {
  const instances: DicomInstance[] = [];
  for (const { file, name, span } of sources) {
    remainingMs(context);
    instances.push(await readDicomInstance(file, name, span));
  }
  const slide = assembleSlide(instances);
  const [base] = slide.levels;
  if (!base) throw new UnsupportedImageError('DICOM: no pyramid level');
  checkDimensions(base.width, base.height, context.maxPixels, 'DICOM');
  if (base.tileWidth !== base.tileHeight) {
    throw new UnsupportedImageError(`DICOM: frames of ${base.tileWidth}×${base.tileHeight} px are not square`);
  }
  const files = new InstanceFiles();
  const levelPath = path.join(context.workDir, LEVEL_NAME);
  let pyramidPath: string;
  let associated: AssociatedPicture[];
  try {
    await writeJpegTiledTiff(levelPath, base.tileWidth, [
      { width: base.width, height: base.height, tiles: levelTiles(context, files, base) },
    ]);
    pyramidPath = await writeVipsPyramid(context, LEVEL_NAME, { base: await baseFromFrames(context, files, base) });
    associated = await associatedPictures(context, files, slide);
  } finally {
    await files.close();
    await rm(levelPath, { force: true });
  }
  const volume = base.instances[0];
  const { resolution, magnification } = dicomScale(slide);
  return {
    format: 'dicom',
    width: base.width,
    height: base.height,
    resolution,
    magnification,
    scannedIn: scanner(volume),
    scannedAt: volume?.acquired ?? null,
    layers: [{ layerNumber: 0, width: base.width, height: base.height, pyramidPath, metadata: FLAT_LAYER }],
    thumbnailPath: await writeThumbnail(context, pyramidPath),
    associated,
  };
}

function scanner(instance: DicomInstance | undefined): string | null {
  const parts = [instance?.manufacturer, instance?.model].filter((part): part is string => !!part);
  return parts.length > 0 ? parts.join(' ') : null;
}

/** LABEL, OVERVIEW and THUMBNAIL instances: one frame each as scanners write them. */
async function associatedPictures(
  context: ConvertContext,
  files: InstanceFiles,
  slide: DicomSlide,
): Promise<AssociatedPicture[]> {
  const pictures: AssociatedPicture[] = [];
  for (const [flavour, instance] of slide.associated) {
    const [frame] = instance.frames;
    if (!frame || instance.numberOfFrames !== 1) continue;
    const kind = ASSOCIATED_KINDS[flavour];
    const target = path.join(context.workDir, `associated-${kind}.jpg`);
    const image = await frameImage(context, files, instance, frame);
    let size = { width: 0, height: 0 };
    await writeAtomically(target, async (partial) => {
      size = await image
        .flatten({ background: { r: 255, g: 255, b: 255 } })
        .toColourspace('srgb')
        .jpeg({ quality: JPEG_QUALITY })
        .toFile(partial);
    });
    pictures.push({ kind, path: target, width: size.width, height: size.height });
  }
  return pictures;
}
