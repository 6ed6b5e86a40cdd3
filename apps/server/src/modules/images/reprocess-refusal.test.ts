import path from 'node:path';
import { IMAGE_MESSAGES, OPENSLIDE_MISSING_MESSAGE, PROCESS_ERROR_CODES, type Image } from '@pathology/contract';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { convertJobs } from '#test/image-fixtures.ts';
import { useTestApp } from '#test/test-app.ts';
import { images } from '../../db/schema/index.ts';
import { convertImageJob } from './image-conversion.job.ts';

describe('reprocessing an image that can never convert', () => {
  const t = useTestApp();
  let caseId: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    caseId = await make.case({ ownerOrganizationId: group });
    await make.join(await make.account({ subject: 'member' }), group, 'member');
  });

  const call = async (method: 'GET' | 'PUT', url: string) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: await t.auth('member') });

  it('refuses with a clear message once a real conversion failed on the file’s own data (-100)', async () => {
    // A TIFF header over text: the upload's content check passes it as a .svs, the converter cannot read it.
    const body = Buffer.concat([Buffer.from('II*\0'), Buffer.from('this is a text file, not a slide\n'.repeat(60))]);
    const query = new URLSearchParams({ caseId, filename: 'notes.svs' }).toString();
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/v1/images?${query}`,
      headers: { ...(await t.auth('member')), 'content-type': 'application/octet-stream' },
      payload: body,
    });
    expect(uploaded.statusCode).toBe(201);
    const imageId = uploaded.json<{ id: string }>().id;
    await convertImageJob(
      {
        db: t.database.db,
        blobs: t.blobs,
        log: pino({ level: 'silent' }),
        scratchDir: path.join(t.dataDir, 'tmp'),
        timeoutSeconds: 60,
      },
      { imageId, retryCount: 0, retryLimit: 2 },
    );
    const failed = (await call('GET', `/images/${imageId}`)).json<Image>();
    expect(failed.status).toBe('process_failed');
    expect(failed.processError?.code).toBe(PROCESS_ERROR_CODES.unsupportedData);

    const jobsBefore = await convertJobs(t, imageId);
    const response = await call('PUT', `/images/${imageId}/reprocess`);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(IMAGE_MESSAGES.unsupportedDataNotReprocessable);
    expect(await convertJobs(t, imageId)).toBe(jobsBefore);
    expect((await call('GET', `/images/${imageId}`)).json<Image>()).toMatchObject({
      status: 'process_failed',
      processError: { code: PROCESS_ERROR_CODES.unsupportedData },
    });
  }, 60_000);

  it('requeues a -100 that said OpenSlide was missing: installing it is what the operator is told to do', async () => {
    const query = new URLSearchParams({ caseId, filename: 'waiting-for-openslide.svs' }).toString();
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/v1/images?${query}`,
      headers: { ...(await t.auth('member')), 'content-type': 'application/octet-stream' },
      payload: Buffer.concat([Buffer.from('II*\0'), Buffer.alloc(2048)]),
    });
    const imageId = uploaded.json<{ id: string }>().id;
    await t.database.db
      .update(images)
      .set({
        status: 'process_failed',
        processErrorCode: PROCESS_ERROR_CODES.unsupportedData,
        processErrorMessage: OPENSLIDE_MISSING_MESSAGE,
      })
      .where(eq(images.id, imageId));
    expect((await call('PUT', `/images/${imageId}/reprocess`)).statusCode).toBe(202);
    expect((await call('GET', `/images/${imageId}`)).json<Image>()).toMatchObject({ processError: null });
  });
});
