import { sharp } from '../../imaging/sharp-setup.ts';

let profile: Promise<Buffer> | undefined;

/**
 * The sRGB ICC profile libvips ships, taken from a one-pixel picture it tags with it: our pyramids and pictures
 * are made in sRGB (toColourspace('srgb')), so that is the colour space the optical path declares.
 */
export function srgbProfile(): Promise<Buffer> {
  profile ??= sharp({ create: { width: 1, height: 1, channels: 3, background: '#ffffff' } })
    .withIccProfile('srgb')
    .jpeg()
    .toBuffer()
    .then(async (jpeg) => {
      const { icc } = await sharp(jpeg).metadata();
      if (icc == null) throw new Error('libvips gave no sRGB profile');
      return icc;
    });
  return profile;
}
