import { describe, expect, it } from 'vitest';
import { uploadedImage } from './tus-result.ts';

const ID = '0b0a4d59-8a2e-4b0e-9d59-3c8f5e0e2f11';
const answer = (body: string, headers: Record<string, string> = {}) => ({
  getBody: () => body,
  getHeader: (name: string) => headers[name],
});

describe('uploadedImage', () => {
  it('reads the image from the final PATCH body', () => {
    expect(uploadedImage(answer(JSON.stringify({ id: ID, filename: 'a.svs' })), 'a.svs')).toEqual({
      id: ID,
      filename: 'a.svs',
    });
  });

  it('takes the id a HEAD names when the final answer was lost and the upload was already stored', () => {
    expect(uploadedImage(answer('', { 'Upload-Image-Id': ID }), 'b.ndpi')).toEqual({ id: ID, filename: 'b.ndpi' });
  });

  it('finds no image in a bodiless answer that names none', () => {
    expect(uploadedImage(answer(''), 'c.svs')).toBeNull();
    expect(uploadedImage(answer('', { 'Upload-Image-Id': 'not-an-id' }), 'c.svs')).toBeNull();
  });
});
