import type { Sharp } from 'sharp';
import { sharp } from './sharp-setup.ts';
import { sharpTimeout, rethrowSharpTimeout } from './pyramid.ts';
import type { ConvertContext } from './context.ts';

/**
 * A pipeline of one TIFF page with its values stretched from the measured min..max to 0..255.
 * 16-bit and signed data are mapped by their real range: a plain cast would clip signed values
 * and a shift would leave a 12-bit microscope image nearly black.
 */
export async function eightBitPage(context: ConvertContext, page: number): Promise<Sharp> {
  const open = () =>
    sharp(context.sourcePath, { page, limitInputPixels: context.maxPixels }).timeout(sharpTimeout(context));
  const metadata = await open().metadata();
  const colour = (metadata.channels ?? 1) >= 3;
  if (metadata.depth === 'uchar') return colour ? open().toColourspace('srgb') : open().toColourspace('b-w');
  const stats = await open().stats().catch(rethrowSharpTimeout);
  const valueChannels = stats.channels.slice(0, colour ? 3 : 1);
  // One range for all colour channels keeps the colour balance; alpha is dropped (JPEG has none).
  const min = Math.min(...valueChannels.map((c) => c.min));
  const max = Math.max(...valueChannels.map((c) => c.max));
  const gain = max > min ? 255 / (max - min) : 0;
  // libvips turns grey16/rgb16 into 8 bit by dividing by 256 when the colourspace changes,
  // so the stretch targets 0..65535 there; other formats (char, short, float) are cast directly.
  const wide = metadata.space === 'grey16' || metadata.space === 'rgb16' ? 257 : 1;
  const stretched = open()
    .removeAlpha()
    .linear(gain * wide, -min * gain * wide);
  return stretched.toColourspace(colour ? 'srgb' : 'b-w');
}
