import fs from 'node:fs/promises';
import { IMAGE_MESSAGES, MESSAGES, type ImageUploadQuery } from '@pathology/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { images, organizations } from '../../db/schema/index.ts';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';
import { buildZip } from '../../imaging/zip-writer.test-support.ts';
import { cutUpload, eventually, leftovers, PNG_BYTES, sha256, SMALL_SVS } from '#test/uploads.ts';

describe('POST images (raw body over real HTTP)', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let base: string;
  let group: string;
  let caseId: string;
  let svs: Buffer;

  beforeAll(async () => {
    make = factories(t.database.db);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    group = await make.organization();
    caseId = await make.case({ ownerOrganizationId: group });
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    await make.join(await make.account({ subject: 'reader' }), group, 'read_only');
    await make.account({ subject: 'stranger' });
    svs = await fs.readFile(SMALL_SVS);
  });

  const urlOf = (query: ImageUploadQuery) =>
    `${base}/api/v1/images?${new URLSearchParams(query as Record<string, string>).toString()}`;

  async function upload(query: Partial<ImageUploadQuery> & { filename: string }, body: Buffer, sub = 'member') {
    const response = await fetch(urlOf({ caseId, ...query }), {
      method: 'POST',
      headers: { ...(await t.auth(sub)), 'content-type': 'application/octet-stream' },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function expectNothingLeft(): Promise<void> {
    await eventually(async () => expect(await leftovers(t)).toEqual({ blobs: [], scratch: [] }));
  }

  const usedBytes = async () =>
    (await t.database.db.select().from(organizations).where(eq(organizations.id, group)))[0]!.usedOriginalBytes;

  it('stores a real slide byte for byte, records it as uploaded, counts its bytes and queues its conversion', async () => {
    const before = await usedBytes();
    const response = await upload(
      { filename: 'CMU-1-Small-Region.svs', metadata: JSON.stringify({ specimenType: null }) },
      svs,
    );
    expect(response.status).toBe(201);
    const id = response.body.id as string;
    expect(response.body).toEqual({ id, filename: 'CMU-1-Small-Region.svs' });

    const [row] = await t.database.db.select().from(images).where(eq(images.id, id));
    expect(row).toMatchObject({ caseId, status: 'uploaded', size: svs.length, displayName: 'CMU-1-Small-Region.svs' });
    const stored = Buffer.concat(await (await t.blobs.get(row!.originalKey!)).toArray());
    expect(sha256(stored)).toBe(sha256(svs));
    expect(await usedBytes()).toBe(before + svs.length);
    const { rows } = await t.database.pool.query(
      `SELECT count(*)::int AS count FROM pgboss.job WHERE name = 'convert' AND data->>'imageId' = $1`,
      [id],
    );
    expect(rows[0].count).toBe(1);
  });

  it('keeps neither a row nor a blob when the connection is cut mid-upload, and goes on serving', async () => {
    const rowsBefore = await t.database.db.select({ id: images.id }).from(images);
    await cutUpload(urlOf({ caseId, filename: 'cut.svs' }), {
      method: 'POST',
      headers: { ...(await t.auth('member')), 'content-type': 'application/octet-stream' },
      body: svs.subarray(0, svs.length / 2),
      declaredLength: svs.length,
    });
    await expectNothingLeft();
    expect(await t.database.db.select({ id: images.id }).from(images)).toEqual(rowsBefore);
    const health = await fetch(`${base}/api/v1/health`);
    expect(health.status).toBe(200);
    expect((await upload({ filename: 'after-cut.svs' }, svs)).status).toBe(201);
  });

  it('refuses a name the case already has with 409 "Duplicate file"', async () => {
    await make.image(caseId, { filename: 'taken.svs' });
    expect(await upload({ filename: 'taken.svs' }, svs)).toEqual({
      status: 409,
      body: { message: IMAGE_MESSAGES.duplicateFile },
    });
    await expectNothingLeft();
  });

  it.each([
    ['an unknown extension', 'slide.xyz', 'svs', IMAGE_MESSAGES.unknownExtension],
    ['an attachment type', 'report.pdf', 'svs', IMAGE_MESSAGES.unsupportedFileType],
    ['PNG bytes named .svs', 'disguised.svs', 'png', IMAGE_MESSAGES.contentDoesNotMatchExtension],
  ] as const)('refuses %s with 415', async (_what, filename, content, message) => {
    const body = content === 'png' ? PNG_BYTES : svs;
    expect(await upload({ filename }, body)).toEqual({ status: 415, body: { message } });
    await expectNothingLeft();
  });

  it.each([
    ['a folder part', '../x.svs', IMAGE_MESSAGES.invalidFilename],
    ['a NUL character', 'a\u0000b.svs', MESSAGES.fieldNulCharacter],
    ['300 characters', `${'a'.repeat(296)}.svs`, IMAGE_MESSAGES.invalidFilename],
  ])('refuses a filename with %s with 422', async (_what, filename, message) => {
    const response = await upload({ filename }, svs);
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual({ filename: message });
    await expectNothingLeft();
  });

  it('refuses a zip that is not a VSI package with 422 "Invalid VSI zip file"', async () => {
    const zip = buildZip([{ name: 'notes.txt', data: Buffer.from('not a slide') }]);
    expect(await upload({ filename: 'package.zip' }, zip)).toEqual({
      status: 422,
      body: { message: IMAGE_MESSAGES.invalidVsiZip },
    });
    await expectNothingLeft();
  });

  it('accepts a VSI package and names the image after its .vsi file', async () => {
    const zip = buildZip([
      { name: 'scan 1.vsi', data: svs.subarray(0, 4096) },
      { name: '_scan 1_/' },
      { name: '_scan 1_/stack1/' },
      { name: '_scan 1_/stack1/frame_t.ets', data: Buffer.alloc(2048, 7), deflate: true },
    ]);
    const response = await upload({ filename: 'vsi-package.zip' }, zip);
    expect(response.status).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(images)
      .where(eq(images.id, response.body.id as string));
    expect(row).toMatchObject({ filename: 'vsi-package.zip', displayName: 'scan 1.vsi', size: zip.length });
    await expectNothingLeft();
  });

  it('answers 404 to an account that cannot see the case and 403 to a read-only member', async () => {
    expect((await upload({ filename: 'stranger.svs' }, svs, 'stranger')).status).toBe(404);
    expect((await upload({ filename: 'reader.svs' }, svs, 'reader')).status).toBe(403);
    await expectNothingLeft();
  });
});
