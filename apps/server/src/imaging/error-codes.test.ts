import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { classifyImagingError, ImagingTimeoutError, UnsupportedImageError } from './errors.ts';
import { convertImage } from './index.ts';
import { slide, tempDir } from './pyramid.test-support.ts';

/** Converts bytes written to a file named `name`; resolves to what convertImage threw. */
async function failureOf(name: string, bytes: Buffer, timeoutMs = 60_000): Promise<unknown> {
  const dir = await tempDir('error-codes-');
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return convertImage({ sourcePath: file, workDir: dir, timeoutMs }).then(
    () => expect.fail('converted'),
    (error: unknown) => error,
  );
}

const photo = () =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: '#a05070' } })
    .jpeg()
    .toBuffer();

describe('conversion failures carry the code the spec gives them', () => {
  it('-100 with the reason for a PNG whose header is corrupt', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    png.fill(0xee, 16, 29);
    const error = await failureOf('corrupt.png', png);
    expect(error).toBeInstanceOf(UnsupportedImageError);
    expect((error as Error).message).toMatch(/^The image data cannot be read: .+/);
  });

  it('-100 for a JPEG cut off half-way, and for content that is not an image at all', async () => {
    const jpeg = await photo();
    expect(await failureOf('cut.jpg', jpeg.subarray(0, jpeg.length / 2))).toBeInstanceOf(UnsupportedImageError);
    expect(await failureOf('notes.svs', Buffer.from('just some text, not a slide'))).toBeInstanceOf(
      UnsupportedImageError,
    );
  });

  it('-101 (transient) for a time limit, whatever the file', async () => {
    const error = await failureOf('slide.svs', await readFile(slide('CMU-1-Small-Region.svs')), 1);
    expect(error).toBeInstanceOf(ImagingTimeoutError);
  });

  it('keeps exhausted resources and unknown failures transient', () => {
    const full = Object.assign(new Error('write failed: no space left on device'), { code: 'ENOSPC' });
    expect(classifyImagingError(full)).toBe(full);
    const memory = new Error('VipsJpeg: out of memory');
    expect(classifyImagingError(memory)).toBe(memory);
    const bug = new TypeError("Cannot read properties of undefined (reading 'width')");
    expect(classifyImagingError(bug)).toBe(bug);
    expect(classifyImagingError(new Error('Input file has corrupt header: tiff2vips: bad'))).toBeInstanceOf(
      UnsupportedImageError,
    );
  });
});
