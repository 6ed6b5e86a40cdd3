import { Readable } from 'node:stream';
import { ATTACHMENT_CONTENT_TYPES, attachmentContentPath, attachmentExtension } from '@pathology/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { attachments, organizations } from '../../db/schema/index.ts';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';
import { tinyPdf } from './tiny-pdf.test-support.ts';

describe('attachment routes', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let caseId: string;
  let otherCaseId: string;

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization();
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    await make.join(await make.account({ subject: 'reader' }), group, 'read_only');
    await make.account({ subject: 'stranger' });
    caseId = await make.case({ ownerOrganizationId: group });
    otherCaseId = await make.case({ ownerOrganizationId: group });
  });

  const call = async (sub: string, method: 'GET' | 'DELETE', url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: { ...(await t.auth(sub)), ...headers } });

  /** An attachment row with its blob, as an upload leaves them. */
  async function stored(onCase: string, filename: string, content: Buffer): Promise<{ id: string; blobKey: string }> {
    const blobKey = `attachments/${crypto.randomUUID()}`;
    await t.blobs.put(blobKey, Readable.from([content]));
    const id = await make.attachment(onCase, { filename, blobKey, sizeBytes: content.length });
    const contentType = ATTACHMENT_CONTENT_TYPES[attachmentExtension(filename)!];
    await t.database.db.update(attachments).set({ contentType }).where(eq(attachments.id, id));
    return { id, blobKey };
  }

  describe('GET cases/{id}/attachments', () => {
    it('lists the attachments of the case by filename for anyone who sees it', async () => {
      const listed = await make.case({ ownerOrganizationId: group });
      await make.attachment(listed, { filename: 'b.xlsx', sizeBytes: 2 });
      await make.attachment(listed, { filename: 'a.pdf', sizeBytes: 1 });
      await make.attachment(otherCaseId, { filename: 'elsewhere.pdf' });
      const response = await call('reader', 'GET', `/cases/${listed}/attachments`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.caseId).toBe(listed);
      expect(body.attachments.map((a: { filename: string }) => a.filename)).toEqual(['a.pdf', 'b.xlsx']);
      expect(body.attachments[0]).toEqual({
        id: expect.any(String),
        filename: 'a.pdf',
        contentType: 'application/pdf',
        sizeBytes: 1,
        createdAt: expect.stringMatching(/Z$/),
        uploadAccountId: null,
      });
    });

    it('answers 404 to a caller who cannot see the case, and for a malformed id', async () => {
      expect((await call('stranger', 'GET', `/cases/${caseId}/attachments`)).statusCode).toBe(404);
      expect((await call('member', 'GET', '/cases/not-an-id/attachments')).statusCode).toBe(404);
    });
  });

  describe('GET cases/{id}/attachments/{attachmentId}', () => {
    it('gives the attachment and the url of its content', async () => {
      const id = await make.attachment(caseId, { filename: 'detail.pdf' });
      const response = await call('reader', 'GET', `/cases/${caseId}/attachments/${id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id,
        filename: 'detail.pdf',
        url: `/api/v1/cases/${caseId}/attachments/${id}/content`,
      });
    });

    it('answers 404 for an attachment of another case, a missing or malformed one, and an invisible case', async () => {
      const foreign = await make.attachment(otherCaseId);
      const missing = '00000000-0000-4000-8000-000000000000';
      for (const attachmentId of [foreign, missing, 'nope']) {
        expect((await call('member', 'GET', `/cases/${caseId}/attachments/${attachmentId}`)).statusCode).toBe(404);
      }
      expect((await call('stranger', 'GET', `/cases/${otherCaseId}/attachments/${foreign}`)).statusCode).toBe(404);
    });
  });

  describe('GET cases/{id}/attachments/{attachmentId}/content', () => {
    const pdf = tinyPdf();

    it('sends a PDF as a download with both filename forms, or inline when asked', async () => {
      const { id } = await stored(caseId, 'Rapport d’été.pdf', pdf);
      const download = await call('reader', 'GET', `/cases/${caseId}/attachments/${id}/content`);
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(pdf)).toBe(true);
      expect(download.headers).toMatchObject({
        'content-type': 'application/pdf',
        'content-length': String(pdf.length),
        'accept-ranges': 'bytes',
        'x-content-type-options': 'nosniff',
        'content-disposition': `attachment; filename="Rapport d__t_.pdf"; filename*=UTF-8''Rapport%20d%E2%80%99%C3%A9t%C3%A9.pdf`,
      });
      const inline = await call('reader', 'GET', `${attachmentContentPath(caseId, id).slice(7)}?disposition=inline`);
      expect(inline.headers['content-disposition']).toMatch(/^inline; filename="Rapport d__t_.pdf"; filename\*=/);
      expect(inline.rawPayload.equals(pdf)).toBe(true);
    });

    it('never shows anything but a PDF inline', async () => {
      const { id } = await stored(caseId, 'page.png', Buffer.from('<script>alert(1)</script>'));
      const response = await call('member', 'GET', `/cases/${caseId}/attachments/${id}/content?disposition=inline`);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.headers['content-disposition']).toMatch(/^attachment; /);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });

    it('answers a single byte range with 206, and 416 past the end', async () => {
      const { id } = await stored(caseId, 'ranged.pdf', pdf);
      const url = `/cases/${caseId}/attachments/${id}/content`;
      const part = await call('member', 'GET', url, { range: 'bytes=0-7' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 0-7/${pdf.length}`);
      expect(part.headers['content-length']).toBe('8');
      expect(part.payload).toBe('%PDF-1.4');
      const tail = await call('member', 'GET', url, { range: 'bytes=-6' });
      expect(tail.payload).toBe('%%EOF\n');
      expect((await call('member', 'GET', url, { range: `bytes=${pdf.length}-` })).statusCode).toBe(416);
    });

    it('answers 404 to a caller who cannot see the case and for an attachment of another case', async () => {
      const { id } = await stored(otherCaseId, 'secret.pdf', pdf);
      expect((await call('stranger', 'GET', `/cases/${otherCaseId}/attachments/${id}/content`)).statusCode).toBe(404);
      expect((await call('member', 'GET', `/cases/${caseId}/attachments/${id}/content`)).statusCode).toBe(404);
    });
  });

  describe('DELETE cases/{id}/attachments/{attachmentId}', () => {
    const usedBytes = async () =>
      (await t.database.db.select().from(organizations).where(eq(organizations.id, group)))[0]!.usedAttachmentBytes;

    it('deletes the row and its blob and takes its bytes off the group usage', async () => {
      const content = Buffer.alloc(300, 7);
      const { id, blobKey } = await stored(caseId, 'gone.csv', content);
      await t.database.db.update(organizations).set({ usedAttachmentBytes: 1000 }).where(eq(organizations.id, group));
      const response = await call('member', 'DELETE', `/cases/${caseId}/attachments/${id}`);
      expect(response.statusCode).toBe(204);
      expect(await t.database.db.select().from(attachments).where(eq(attachments.id, id))).toEqual([]);
      expect(await t.blobs.exists(blobKey)).toBe(false);
      expect(await usedBytes()).toBe(700);
      expect((await call('member', 'DELETE', `/cases/${caseId}/attachments/${id}`)).statusCode).toBe(404);
    });

    it('answers 403 to a read-only member, 404 to a stranger and for an attachment of another case', async () => {
      const { id, blobKey } = await stored(caseId, 'kept.pdf', tinyPdf());
      expect((await call('reader', 'DELETE', `/cases/${caseId}/attachments/${id}`)).statusCode).toBe(403);
      expect((await call('stranger', 'DELETE', `/cases/${caseId}/attachments/${id}`)).statusCode).toBe(404);
      expect((await call('member', 'DELETE', `/cases/${otherCaseId}/attachments/${id}`)).statusCode).toBe(404);
      expect(await t.blobs.exists(blobKey)).toBe(true);
      expect(await t.database.db.select().from(attachments).where(eq(attachments.id, id))).toHaveLength(1);
    });
  });
});
