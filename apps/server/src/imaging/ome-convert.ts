import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Sharp } from 'sharp';
import { sharp } from './sharp-setup.ts';
import { remainingMs, type ConvertContext } from './context.ts';
import { eightBitPage } from './eight-bit.ts';
import { UnsupportedImageError } from './errors.ts';
import type { ConvertedLayer } from './layers.ts';
import { omeIfdIndex, type OmeMetadata } from './ome-xml.ts';
import { rethrowSharpTimeout, sharpTimeout, writeSharpPyramid, writeThumbnail } from './pyramid.ts';
import { resolutionFromPixelSize } from './resolution.ts';
import type { TiffStructure } from './tiff-structure.ts';
import type { ConvertedImage } from './types.ts';

/**
 * OME-TIFF: each z-plane (first timepoint) becomes a layer. Two or three channels are shown together
 * as RGB, one channel or more than three (where no colour assignment is obvious) as grey from channel 0.
 */
export async function convertOmeTiff(
  context: ConvertContext,
  structure: TiffStructure,
  ome: OmeMetadata,
): Promise<ConvertedImage> {
  const first = structure.pages[0];
  if (!first) throw new Error('TIFF has no pages');
  // An RGB OME-TIFF stores all of SizeC in one IFD (SamplesPerPixel 3); planes then only vary in Z and T.
  const samplesPerIfd = Math.max(1, first.samplesPerPixel);
  const ifdChannels = Math.max(1, Math.ceil(ome.sizeC / samplesPerIfd));
  const layout = { ...ome, sizeC: ifdChannels };
  const combine = samplesPerIfd === 1 && ifdChannels >= 2 && ifdChannels <= 3;

  const layers: ConvertedLayer[] = [];
  for (let z = 0; z < ome.sizeZ; z++) {
    const channels = combine ? Array.from({ length: ifdChannels }, (_, c) => c) : [0];
    const pages = channels.map((c) => omeIfdIndex(layout, z, c, 0));
    const page = structure.pages[pages[0] ?? 0];
    if (!page || pages.some((index) => index >= structure.pages.length)) {
      throw new UnsupportedImageError(
        `OME-TIFF plane z=${z} points past the ${structure.pages.length} IFDs of the file`,
      );
    }
    const image = combine ? await joinedChannels(context, pages, z) : await eightBitPage(context, page.index);
    const pyramidPath = await writeSharpPyramid(image, context, z);
    const plane = ome.planes.find((p) => p.theZ === z && p.theC === 0 && p.theT === 0);
    layers.push({
      layerNumber: z,
      width: page.width,
      height: page.height,
      pyramidPath,
      metadata: {
        the_z: z,
        position_z: plane?.positionZ ?? z,
        position_z_unit: plane?.positionZ != null ? plane.positionZUnit : null,
      },
    });
    if (combine) await rm(channelDir(context, z), { recursive: true, force: true });
  }

  const base = layers[0];
  if (!base) throw new UnsupportedImageError('OME-TIFF has no planes');
  return {
    format: 'ome-tiff',
    width: base.width,
    height: base.height,
    resolution: resolutionFromPixelSize(ome.pixelSizeCm),
    magnification: ome.nominalMagnification,
    scannedIn: ome.instrument,
    scannedAt: ome.acquisitionDate,
    layers,
    thumbnailPath: await writeThumbnail(context, base.pyramidPath),
    associated: [],
  };
}

function channelDir(context: ConvertContext, z: number): string {
  return path.join(context.workDir, `channels-${z}`);
}

/**
 * Each channel is stretched on its own range (fluorescence channels differ widely) and written as an
 * uncompressed .v file, which libvips memory-maps: joining them streams instead of holding planes in memory.
 */
async function joinedChannels(context: ConvertContext, pages: number[], z: number): Promise<Sharp> {
  const dir = channelDir(context, z);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir);
  const files: string[] = [];
  for (const [c, page] of pages.entries()) {
    remainingMs(context);
    const file = path.join(dir, `c${c}.v`);
    await (await eightBitPage(context, page)).toFile(file).catch(rethrowSharpTimeout);
    files.push(file);
  }
  if (files.length === 2) {
    // Two channels fill red and green; blue stays black rather than repeating a channel.
    const blank = path.join(dir, 'blank.v');
    await sharp(files[0]).linear(0, 0).toFile(blank).catch(rethrowSharpTimeout);
    files.push(blank);
  }
  const [red, ...rest] = files;
  return sharp(red, { limitInputPixels: context.maxPixels })
    .timeout(sharpTimeout(context))
    .joinChannel(rest)
    .toColourspace('srgb');
}
