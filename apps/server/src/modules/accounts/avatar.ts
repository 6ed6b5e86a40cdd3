import { AVATAR_SIZE, MAX_AVATAR_UPLOAD_BYTES } from '@pathology/contract';
import { sharp } from '../../imaging/sharp-setup.ts';
import { HttpError } from '../../http/http-error.ts';

export const AVATAR_MESSAGES = {
  invalid: 'The picture must be a PNG, JPEG or WebP image.',
  tooLarge: 'The picture must be at most 5 MB.',
} as const;

/**
 * A square, small WebP of the uploaded picture as a data URL: it travels inside accounts/me and shows in
 * an <img> without a token, and at this size (a few KB) costs less than a request of its own.
 */
export async function avatarDataUrl(upload: Buffer): Promise<string> {
  if (upload.length > MAX_AVATAR_UPLOAD_BYTES) throw new HttpError(413, AVATAR_MESSAGES.tooLarge);
  const image = sharp(upload, { limitInputPixels: 50_000_000, failOn: 'error' });
  const metadata = await image.metadata().catch(() => null);
  if (metadata == null || !['png', 'jpeg', 'webp'].includes(metadata.format ?? '')) {
    throw new HttpError(422, AVATAR_MESSAGES.invalid);
  }
  const webp = await image
    .rotate()
    .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
    .webp({ quality: 82 })
    .toBuffer()
    .catch(() => {
      throw new HttpError(422, AVATAR_MESSAGES.invalid);
    });
  return `data:image/webp;base64,${webp.toString('base64')}`;
}
