import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ATTACHMENT_MESSAGES, IMAGE_MESSAGES, MAX_ATTACHMENT_BYTES } from '@pathology/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccessRepository, createCapabilitiesService } from '../../auth/capabilities/index.ts';
import type { Caller } from '../../auth/caller.ts';
import { attachments, organizations } from '../../db/schema/index.ts';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';
import { cutUpload, eventually } from '#test/uploads.ts';
import { createAttachmentRepository } from './attachment.repository.ts';
import { createAttachmentService } from './attachment.service.ts';
import { pdfObjectsFound, tinyPdf } from './tiny-pdf.test-support.ts';

describe('POST cases/{id}/attachments/upload (raw body over real HTTP)', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let base: string;
  let group: string;
  let caseId: string;
  let member: Caller;
  const pdf = tinyPdf('Final report: invasive ductal carcinoma');

  beforeAll(async () => {
    make = factories(t.database.db);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    group = await make.organization();
    caseId = await make.case({ ownerOrganizationId: group });
    member = await make.account({ subject: 'member' });
    await make.join(member, group, 'member');
    await make.join(await make.account({ subject: 'reader' }), group, 'read_only');
    await make.account({ subject: 'stranger' });
  });

  const uploadUrl = (filename: string, onCase = caseId) =>
    `${base}/api/v1/cases/${onCase}/attachments/upload?${new URLSearchParams({ filename }).toString()}`;

  async function upload(filename: string, body: Buffer, options: { sub?: string; onCase?: string } = {}) {
    const response = await fetch(uploadUrl(filename, options.onCase), {
      method: 'POST',
      headers: { ...(await t.auth(options.sub ?? 'member')), 'content-type': 'application/octet-stream' },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const usedBytes = async () =>
    (await t.database.db.select().from(organizations).where(eq(organizations.id, group)))[0]!.usedAttachmentBytes;

  /** Blobs under attachments/ that no attachment row refers to (temporary files of a put included). */
  async function leftoverBlobs(): Promise<string[]> {
    const root = path.join(t.dataDir, 'blobs');
    const files = await fs
      .readdir(path.join(root, 'attachments'), { recursive: true, withFileTypes: true })
      .catch(() => []);
    const known = new Set((await t.database.db.select().from(attachments)).map((row) => row.blobKey));
    return files
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
      .filter((key) => !known.has(key));
  }

  const expectNothingLeft = () => eventually(async () => expect(await leftoverBlobs()).toEqual([]));
  const rowCount = async () => (await t.database.db.select().from(attachments)).length;

  it('stores a real PDF byte for byte under a key without its name, counts it, serves it back and deletes it', async () => {
    const before = await usedBytes();
    const response = await upload('Final report (v2) é.PDF', pdf);
    expect(response.status).toBe(201);
    const id = response.body.id as string;
    expect(response.body).toEqual({
      id,
      filename: 'Final report (v2) é.PDF',
      contentType: 'application/pdf',
      sizeBytes: pdf.length,
      createdAt: expect.any(String),
      uploadAccountId: member.accountId,
    });
    const [row] = await t.database.db.select().from(attachments).where(eq(attachments.id, id));
    expect(row!.blobKey).toBe(`attachments/${id}`);
    expect(await usedBytes()).toBe(before + pdf.length);

    const headers = await t.auth('reader');
    const content = await fetch(`${base}/api/v1/cases/${caseId}/attachments/${id}/content?disposition=inline`, {
      headers,
    });
    const served = Buffer.from(await content.arrayBuffer());
    expect(content.headers.get('content-type')).toBe('application/pdf');
    expect(content.headers.get('content-disposition')).toMatch(/^inline; /);
    expect(served.equals(pdf)).toBe(true);
    expect(pdfObjectsFound(served)).toBe(true);

    const list = await fetch(`${base}/api/v1/cases/${caseId}/attachments`, { headers });
    expect(((await list.json()) as { attachments: unknown[] }).attachments).toContainEqual(response.body);

    const deleted = await fetch(`${base}/api/v1/cases/${caseId}/attachments/${id}`, {
      method: 'DELETE',
      headers: await t.auth('member'),
    });
    expect(deleted.status).toBe(204);
    expect(await usedBytes()).toBe(before);
    expect(await t.blobs.exists(row!.blobKey)).toBe(false);
  });

  it('keeps neither a row nor a blob nor usage when the connection is cut mid-upload, and goes on serving', async () => {
    const [rowsBefore, usageBefore] = [await rowCount(), await usedBytes()];
    const big = Buffer.concat([pdf, Buffer.alloc(4 * 1024 * 1024, 32)]);
    await cutUpload(uploadUrl('cut.pdf'), {
      method: 'POST',
      headers: { ...(await t.auth('member')), 'content-type': 'application/pdf' },
      body: big.subarray(0, big.length / 2),
      declaredLength: big.length,
    });
    await expectNothingLeft();
    expect(await rowCount()).toBe(rowsBefore);
    expect(await usedBytes()).toBe(usageBefore);
    expect((await upload('cut.pdf', pdf)).status).toBe(201);
  });

  it('refuses an unsupported extension with 415 "Unsupported files: {name}"', async () => {
    for (const filename of ['notes.txt', 'slide.svs', 'noextension']) {
      expect(await upload(filename, pdf)).toEqual({ status: 415, body: { message: `Unsupported files: ${filename}` } });
    }
    await expectNothingLeft();
  });

  it('refuses content that is not what its extension says with 415, storing nothing', async () => {
    const [rowsBefore, usageBefore] = [await rowCount(), await usedBytes()];
    const page = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');
    for (const filename of ['report.pdf', 'table.csv', 'scan.png', 'letter.docx']) {
      expect(await upload(filename, page)).toEqual({
        status: 415,
        body: { message: ATTACHMENT_MESSAGES.contentDoesNotMatchExtension },
      });
    }
    expect(await upload('report.xlsx', pdf)).toMatchObject({ status: 415 });
    expect(await rowCount()).toBe(rowsBefore);
    expect(await usedBytes()).toBe(usageBefore);
    await expectNothingLeft();
  });

  it('refuses a filename the case already has with 409 "Duplicate files", whatever the content', async () => {
    await make.attachment(caseId, { filename: 'taken.xlsx' });
    const before = await rowCount();
    expect(await upload('taken.xlsx', Buffer.from('other bytes'))).toEqual({
      status: 409,
      body: { message: ATTACHMENT_MESSAGES.duplicateFiles },
    });
    expect(await rowCount()).toBe(before);
    await expectNothingLeft();
  });

  it.each(['a#b.pdf', '100%.pdf', 'what?.pdf'])('refuses %s with 422 naming the forbidden characters', async (name) => {
    expect(await upload(name, pdf)).toEqual({
      status: 422,
      body: { message: 'Validation failed', errors: { filename: ATTACHMENT_MESSAGES.forbiddenCharacters } },
    });
  });

  it.each(['../escape.pdf', 'dir\\file.pdf', ' padded.pdf', 'x'.repeat(252) + '.pdf'])(
    'refuses the invalid filename %s with 422',
    async (name) => {
      expect(await upload(name, pdf)).toEqual({
        status: 422,
        body: { message: 'Validation failed', errors: { filename: IMAGE_MESSAGES.invalidFilename } },
      });
    },
  );

  it('refuses an empty file with 422', async () => {
    expect(await upload('empty.csv', Buffer.alloc(0))).toEqual({
      status: 422,
      body: { message: ATTACHMENT_MESSAGES.emptyFile },
    });
    await expectNothingLeft();
  });

  it('refuses a declared length over the limit with 413 before reading the body', async () => {
    const headers = { ...(await t.auth('member')), 'content-length': String(MAX_ATTACHMENT_BYTES + 1) };
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(uploadUrl('huge.zip'), { method: 'POST', headers }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          // The rest of the announced body will never come: let the connection go.
          request.destroy();
          resolve({ status: response.statusCode!, body });
        });
      });
      request.on('error', reject);
      request.write(Buffer.alloc(1024));
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ message: ATTACHMENT_MESSAGES.tooLarge });
    await expectNothingLeft();
  });

  it('answers 403 to a read-only member and 404 to a stranger or for a missing case', async () => {
    const before = await rowCount();
    expect((await upload('r.pdf', pdf, { sub: 'reader' })).status).toBe(403);
    expect((await upload('s.pdf', pdf, { sub: 'stranger' })).status).toBe(404);
    expect((await upload('m.pdf', pdf, { onCase: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect(await rowCount()).toBe(before);
    await expectNothingLeft();
  });

  describe('a body without a declared length', () => {
    const service = () =>
      createAttachmentService({
        attachments: createAttachmentRepository(t.database.db),
        blobs: t.blobs,
        capabilities: createCapabilitiesService(createAccessRepository(t.database.db)),
        maxBytes: 16,
      });

    it('is counted while streaming and refused with 413 past the limit, leaving nothing', async () => {
      const [rowsBefore, usageBefore] = [await rowCount(), await usedBytes()];
      const prepared = await service().prepareUpload(member, caseId, 'chunked.csv');
      const body = Readable.from([Buffer.alloc(10, 65), Buffer.alloc(10, 66)]);
      await expect(service().receiveUpload(prepared, body)).rejects.toMatchObject({
        statusCode: 413,
        message: ATTACHMENT_MESSAGES.tooLarge,
      });
      await expect(service().prepareUpload(member, caseId, 'declared.csv', 17)).rejects.toMatchObject({
        statusCode: 413,
      });
      expect(await rowCount()).toBe(rowsBefore);
      expect(await usedBytes()).toBe(usageBefore);
      await expectNothingLeft();
    });

    it('is stored when it stays within the limit', async () => {
      const prepared = await service().prepareUpload(member, caseId, 'small.csv');
      const stored = await service().receiveUpload(
        prepared,
        Readable.from([Buffer.from('a,b\n'), Buffer.from('1,2\n')]),
      );
      expect(stored).toMatchObject({ filename: 'small.csv', contentType: 'text/csv', sizeBytes: 8 });
    });
  });
});
