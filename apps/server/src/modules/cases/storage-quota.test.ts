import fs from 'node:fs/promises';
import { MESSAGES } from '@pathology/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { attachments, images, organizations } from '../../db/schema/index.ts';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';
import { leftovers, SMALL_SVS } from '#test/uploads.ts';
import { BYTES_PER_GB } from '@pathology/contract';

describe("a group's storage limit refuses uploads that would pass it, before any byte is stored", () => {
  const t = useTestApp();
  let base: string;
  let group: string;
  let caseId: string;
  let svs: Buffer;

  beforeAll(async () => {
    const make = factories(t.database.db);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    group = await make.organization();
    caseId = await make.case({ ownerOrganizationId: group });
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    svs = await fs.readFile(SMALL_SVS);
    // A 1 GB group with room for the slide once, not twice.
    await t.database.db
      .update(organizations)
      .set({ storageLimitGb: 1, usedOriginalBytes: BYTES_PER_GB - Math.round(svs.length * 1.5) })
      .where(eq(organizations.id, group));
  });

  const used = async () => {
    const [row] = await t.database.db.select().from(organizations).where(eq(organizations.id, group));
    return row!.usedOriginalBytes + row!.usedPyramidalBytes + row!.usedAttachmentBytes;
  };

  async function post(url: string, body: Buffer, headers: Record<string, string> = {}) {
    const response = await fetch(`${base}/api/v1${url}`, {
      method: 'POST',
      headers: { ...(await t.auth('member')), 'content-type': 'application/octet-stream', ...headers },
      body,
    });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as { message?: string } };
  }

  const uploadSlide = (filename: string) =>
    post(`/images?${new URLSearchParams({ caseId, filename }).toString()}`, svs);

  it('fills the group to its limit, then refuses the next slide, tus upload and attachment with the message', async () => {
    expect((await uploadSlide('first.svs')).status).toBe(201);
    const full = await used();
    expect(full).toBeLessThanOrEqual(BYTES_PER_GB);

    const refused = await uploadSlide('second.svs');
    expect(refused).toEqual({ status: 413, body: expect.objectContaining({ message: MESSAGES.storageLimitExceeded }) });

    const tusCreation = await fetch(`${base}/api/v1/uploads/images`, {
      method: 'POST',
      headers: {
        ...(await t.auth('member')),
        'tus-resumable': '1.0.0',
        'upload-length': String(svs.length),
        'upload-metadata': `caseId ${Buffer.from(caseId).toString('base64')},filename ${Buffer.from('third.svs').toString('base64')}`,
      },
    });
    expect(tusCreation.status).toBe(413);
    expect(await tusCreation.text()).toContain(MESSAGES.storageLimitExceeded);

    const attachment = await post(
      `/cases/${caseId}/attachments/upload?filename=report.pdf`,
      Buffer.alloc(svs.length, 0x25),
    );
    expect(attachment).toEqual({
      status: 413,
      body: expect.objectContaining({ message: MESSAGES.storageLimitExceeded }),
    });

    expect(await used()).toBe(full);
    expect(await t.database.db.select().from(images).where(eq(images.caseId, caseId))).toHaveLength(1);
    expect(await t.database.db.select().from(attachments).where(eq(attachments.caseId, caseId))).toHaveLength(0);
    expect(await leftovers(t)).toEqual({ blobs: [], scratch: [] });
  });

  it('refuses, at the moment it is recorded, an upload whose size was not announced', async () => {
    await t.database.db
      .update(organizations)
      .set({ usedOriginalBytes: BYTES_PER_GB - 100 - svs.length })
      .where(eq(organizations.id, group));
    const before = await used();
    const query = new URLSearchParams({ caseId, filename: 'chunked.svs' }).toString();
    // A stream body goes out chunked, with no Content-Length to judge it by in advance.
    const chunked: RequestInit & { duplex: 'half' } = {
      method: 'POST',
      headers: { ...(await t.auth('member')), 'content-type': 'application/octet-stream' },
      body: new Blob([svs, svs]).stream(),
      duplex: 'half',
    };
    const response = await fetch(`${base}/api/v1/images?${query}`, chunked);
    expect(response.status).toBe(413);
    expect(await used()).toBe(before);
    expect(await leftovers(t)).toEqual({ blobs: [], scratch: [] });
  });

  it('puts no limit on a group without one', async () => {
    await t.database.db.update(organizations).set({ storageLimitGb: null }).where(eq(organizations.id, group));
    expect((await uploadSlide('unlimited.svs')).status).toBe(201);
  });
});
