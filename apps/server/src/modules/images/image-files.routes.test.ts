import { IMAGE_MESSAGES } from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { storedImage } from '#test/image-fixtures.ts';
import { useTestApp } from '#test/test-app.ts';

describe('image file routes', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let caseId: string;
  const original = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

  beforeAll(async () => {
    make = factories(t.database.db);
    const group = await make.organization();
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    await make.join(await make.account({ subject: 'reader' }), group, 'read_only');
    await make.account({ subject: 'stranger' });
    caseId = await make.case({ ownerOrganizationId: group });
  });

  const get = async (sub: string, url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { ...(await t.auth(sub)), ...headers } });

  describe('GET images/{id}/cache/original', () => {
    it('sends the original as an attachment with its length', async () => {
      const { id } = await storedImage(t, caseId, { filename: 'plain.svs', original });
      const response = await get('member', `/images/${id}/cache/original`);
      expect(response.statusCode).toBe(200);
      expect(response.headers).toMatchObject({
        'content-type': 'application/octet-stream',
        'content-length': '1000',
        'accept-ranges': 'bytes',
        'content-disposition': `attachment; filename="plain.svs"; filename*=UTF-8''plain.svs`,
      });
      expect(response.rawPayload.equals(original)).toBe(true);
    });

    it('sends one range (206), a suffix range, and 416 past the end', async () => {
      const { id } = await storedImage(t, caseId, { original });
      const url = `/images/${id}/cache/original`;
      const middle = await get('member', url, { range: 'bytes=100-199' });
      expect(middle.statusCode).toBe(206);
      expect(middle.headers).toMatchObject({ 'content-range': 'bytes 100-199/1000', 'content-length': '100' });
      expect(middle.rawPayload.equals(original.subarray(100, 200))).toBe(true);
      const tail = await get('member', url, { range: 'bytes=-10' });
      expect(tail.headers['content-range']).toBe('bytes 990-999/1000');
      expect(tail.rawPayload.equals(original.subarray(990))).toBe(true);
      const past = await get('member', url, { range: 'bytes=1000-' });
      expect(past.statusCode).toBe(416);
      expect(past.headers['content-range']).toBe('bytes */1000');
      // Several ranges are answered with the whole file.
      expect((await get('member', url, { range: 'bytes=0-1,5-6' })).statusCode).toBe(200);
    });

    it('keeps a hostile filename inside Content-Disposition', async () => {
      const filename = 'Ünïcode "quoted"\\\r\nX-Injected: yes; 標本 100%.svs';
      const { id } = await storedImage(t, caseId, { filename });
      const response = await get('member', `/images/${id}/cache/original`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-injected']).toBeUndefined();
      const disposition = response.headers['content-disposition'] as string;
      expect(disposition).toBe(
        `attachment; filename="_n_code _quoted____X-Injected: yes; __ 100_.svs"; ` +
          `filename*=UTF-8''%C3%9Cn%C3%AFcode%20%22quoted%22%5C%0D%0AX-Injected%3A%20yes%3B%20` +
          `%E6%A8%99%E6%9C%AC%20100%25.svs`,
      );
      const encoded = /filename\*=UTF-8''(.*)$/.exec(disposition)![1]!;
      expect(decodeURIComponent(encoded)).toBe(filename);
    });

    it('needs download image (403 read-only, 404 stranger) and a stored original', async () => {
      const { id } = await storedImage(t, caseId);
      expect((await get('reader', `/images/${id}/cache/original`)).statusCode).toBe(403);
      expect((await get('stranger', `/images/${id}/cache/original`)).statusCode).toBe(404);
      const reserved = await make.image(caseId, { status: 'reserved' });
      const missing = await get('member', `/images/${reserved}/cache/original`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe(IMAGE_MESSAGES.imageNotAvailable);
    });
  });

  describe('GET images/{id}/data', () => {
    it('sends the thumbnail as a privately cacheable JPEG, and 304 when it is current', async () => {
      const { id } = await storedImage(t, caseId);
      const response = await get('reader', `/images/${id}/data?type=SMALL`);
      expect(response.statusCode).toBe(200);
      expect(response.headers).toMatchObject({
        'content-type': 'image/jpeg',
        'cache-control': 'private, max-age=3600',
        etag: expect.stringMatching(/^"[\w-]+"$/),
      });
      expect(response.body).toBe('thumbnail-jpeg');
      expect((await get('reader', `/images/${id}/data`)).body).toBe('thumbnail-jpeg');
      const again = await get('reader', `/images/${id}/data?type=SMALL`, { 'if-none-match': response.headers.etag! });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    });

    it('sends the label picture, and 404 "not available yet" for a missing macro or thumbnail', async () => {
      const { id } = await storedImage(t, caseId);
      expect((await get('reader', `/images/${id}/data?type=LABEL`)).body).toBe('label-jpeg');
      const macro = await get('reader', `/images/${id}/data?type=MACRO`);
      expect(macro.statusCode).toBe(404);
      expect(macro.json().message).toBe(IMAGE_MESSAGES.imageNotAvailable);
      const queued = await make.image(caseId, { status: 'uploaded' });
      expect((await get('reader', `/images/${queued}/data?type=SMALL`)).json().message).toBe(
        IMAGE_MESSAGES.imageNotAvailable,
      );
    });

    it('hides the pictures from a stranger and refuses an unknown type', async () => {
      const { id } = await storedImage(t, caseId);
      expect((await get('stranger', `/images/${id}/data?type=SMALL`)).statusCode).toBe(404);
      expect((await get('member', `/images/${id}/data?type=HUGE`)).statusCode).toBe(422);
    });
  });
});
