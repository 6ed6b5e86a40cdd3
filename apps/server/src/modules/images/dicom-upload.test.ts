import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Image } from '@pathology/contract';
import { IMAGE_MESSAGES } from '@pathology/contract';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';
import { imageAssociated, images } from '../../db/schema/index.ts';
import { ctSlice, tiffToDicomSlide, zipFiles } from '../../imaging/dicom-read.test-support.ts';
import { buildZip } from '../../imaging/zip-writer.test-support.ts';
import { convertImageJob } from './image-conversion.job.ts';

describe('uploading DICOM whole-slide images through the upload route', () => {
  const t = useTestApp();
  let caseId: string;
  let dir: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    caseId = await make.case({ ownerOrganizationId: group });
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dicom-upload-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  async function upload(filename: string, body: Buffer) {
    const query = new URLSearchParams({ caseId, filename }).toString();
    return t.app.inject({
      method: 'POST',
      url: `/api/v1/images?${query}`,
      headers: { ...(await t.auth('member')), 'content-type': 'application/octet-stream' },
      payload: body,
    });
  }

  /** The test app runs no worker: the job runs here. */
  async function convert(imageId: string) {
    await convertImageJob(
      {
        db: t.database.db,
        blobs: t.blobs,
        log: pino({ level: 'silent' }),
        timeoutSeconds: 120,
        scratchDir: path.join(t.dataDir, 'tmp'),
      },
      { imageId, retryCount: 0, retryLimit: 0 },
    );
  }

  const row = async (id: string) => (await t.database.db.select().from(images).where(eq(images.id, id)))[0]!;

  it('takes a zip of one slide from TIFFToDicom and converts it with its metadata and pictures', async () => {
    const zip = await zipFiles(path.join(dir, 'slide.zip'), await tiffToDicomSlide());
    const response = await upload('CMU-1 DICOM.zip', await fs.readFile(zip));
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ id: string }>();
    expect(await row(id)).toMatchObject({ status: 'uploaded', displayName: 'CMU-1 DICOM.zip' });

    await convert(id);
    expect(await row(id)).toMatchObject({
      status: 'available',
      format: 'dicom',
      width: 2220,
      height: 2967,
      magnification: 20,
    });
    const shown = (
      await t.app.inject({ method: 'GET', url: `/api/v1/images/${id}`, headers: await t.auth('member') })
    ).json<Image>();
    expect(shown).toMatchObject({ status: 'available', viewable: true, dimensions: { width: 2220, height: 2967 } });
    const pictures = await t.database.db.select().from(imageAssociated).where(eq(imageAssociated.imageId, id));
    expect(pictures.map((picture) => picture.kind).sort()).toEqual(['label', 'macro', 'thumbnail']);
  });

  it('takes a single .dcm; one that is no whole-slide image fails its conversion with -100 saying so', async () => {
    const [ct] = await ctSlice();
    const response = await upload('chest.dcm', await fs.readFile(ct!));
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ id: string }>();
    await convert(id);
    expect(await row(id)).toMatchObject({
      status: 'process_failed',
      processErrorCode: -100,
      processErrorMessage: expect.stringContaining('not a whole-slide image (SOP class 1.2.840.10008.5.1.4.1.1.2'),
    });
  });

  it('still refuses a zip that is neither a DICOM slide nor a VSI package, and a .dcm that is no DICOM', async () => {
    const zip = buildZip([{ name: 'notes.txt', data: Buffer.from('not a slide') }]);
    const refused = await upload('notes.zip', zip);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ message: IMAGE_MESSAGES.invalidVsiZip });
    const png = await upload('image.dcm', Buffer.from('\x89PNG\r\n\x1a\n' + 'x'.repeat(200), 'latin1'));
    expect(png.statusCode).toBe(415);
  });
});
