import { Readable } from 'node:stream';
import { IMAGE_MESSAGES, PRIVATE_LABEL_NAME, PROCESS_ERROR_CODES } from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../auth/caller.ts';
import { factories } from '#test/factories.ts';
import { convertJobs, storedImage, usageOf } from '#test/image-fixtures.ts';
import { useTestApp } from '#test/test-app.ts';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };
const STAR = { visibilityType: 'private', labelName: PRIVATE_LABEL_NAME } as const;
const NO_SUCH_IMAGE = '00000000-0000-4000-8000-000000000000';

describe('image routes', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let elsewhere: string;
  let caseId: string;
  const callers: Record<string, Caller> = {};

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization();
    elsewhere = await make.organization();
    for (const sub of ['member', 'reader', 'stranger']) callers[sub] = await make.account({ subject: sub });
    await make.join(callers.member!, group, 'member');
    await make.join(callers.reader!, group, 'read_only');
    await make.join(callers.member!, elsewhere, 'member');
    await make.join(callers.reader!, elsewhere, 'member');
    caseId = await make.case({ ownerOrganizationId: group });
  });

  const call = async (
    sub: string,
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...(await t.auth(sub)), ...headers },
      ...(payload ? { payload } : {}),
    });

  const blobExists = (key: string) => t.blobs.exists(key);

  describe('GET images/{id}', () => {
    it('gives the image with its layers, the initial layer as tile source and the caller’s star', async () => {
      const id = await make.image(caseId, {
        width: 2000,
        height: 1000,
        resolutionX: 40000,
        resolutionY: 40000,
        resolutionUnit: 'dpc',
        magnification: 40,
      });
      const top = await make.imageLayer(id, { layerNumber: 1 });
      const focal = await make.imageLayer(id, { layerNumber: 0 });
      await t.database.pool.query(`UPDATE image_layers SET metadata = $2 WHERE id = $1`, [
        top,
        { the_z: 1, position_z: 0, position_z_unit: 'µm' },
      ]);
      await make.imageAssociated(id, { kind: 'macro' });
      await make.imageAssociated(id, { kind: 'label' });
      await make.label({ imageId: id }, STAR, callers.member!);

      const response = await call('member', 'GET', `/images/${id}`);
      expect(response.statusCode).toBe(200);
      const image = response.json();
      expect(image).toMatchObject({
        id,
        caseId,
        status: 'available',
        processError: null,
        dimensions: { width: 2000, height: 1000 },
        resolution: { x: 40000, y: 40000, unit: 'dpc' },
        magnification: 40,
        privateLabelled: true,
        predictions: [],
        prediction: null,
        associatedImages: ['label', 'macro'],
        tileSource: { type: 'iiif_dynamic', url: `/iiif/2/${top}/info.json` },
      });
      expect(image.imageLayerResources.map((layer: { id: string }) => layer.id)).toEqual([focal, top]);
      expect((await call('reader', 'GET', `/images/${id}`)).json().privateLabelled).toBe(false);
    });

    it('says unknown for missing dimensions, gives the process error, and no tiles until available', async () => {
      const id = await make.image(caseId, {
        status: 'process_failed',
        processErrorCode: PROCESS_ERROR_CODES.unsupportedData,
        processErrorMessage: IMAGE_MESSAGES.unsupportedData,
      });
      await make.imageLayer(id);
      const image = (await call('reader', 'GET', `/images/${id}`)).json();
      expect(image).toMatchObject({
        dimensions: null,
        resolution: null,
        tileSource: null,
        processError: { code: -100, message: 'image contains unsupported data' },
      });
      expect(image.imageLayerResources).toHaveLength(1);
    });

    it('answers 404 to a stranger and for malformed or unknown ids', async () => {
      const id = await make.image(caseId);
      for (const url of [`/images/${id}`, '/images/not-an-id', `/images/${NO_SUCH_IMAGE}`]) {
        expect((await call(url.includes(id) ? 'stranger' : 'member', 'GET', url)).statusCode).toBe(404);
      }
    });
  });

  describe('PATCH images/{id}', () => {
    it('sets the AI model and organ as a merge patch; null clears, absent keeps', async () => {
      const id = await make.image(caseId, { organ: 'Colon' });
      const set = await call('member', 'PATCH', `/images/${id}`, { modelName: 'breast-biopsy' }, MERGE_PATCH);
      expect(set.statusCode).toBe(200);
      expect(set.json()).toMatchObject({ modelName: 'breast-biopsy', organ: 'Colon' });
      const cleared = await call('member', 'PATCH', `/images/${id}`, { modelName: null, organ: 'Breast' }, MERGE_PATCH);
      expect(cleared.json()).toMatchObject({ modelName: null, organ: 'Breast' });
    });

    it('refuses an unknown model (422), a read-only member (403) and a stranger (404)', async () => {
      const id = await make.image(caseId);
      expect((await call('member', 'PATCH', `/images/${id}`, { modelName: 'skull' }, MERGE_PATCH)).statusCode).toBe(
        422,
      );
      expect((await call('reader', 'PATCH', `/images/${id}`, { organ: 'Lung' }, MERGE_PATCH)).statusCode).toBe(403);
      expect((await call('stranger', 'PATCH', `/images/${id}`, { organ: 'Lung' }, MERGE_PATCH)).statusCode).toBe(404);
    });
  });

  describe('DELETE images/{id}', () => {
    it('deletes the rows, the files and the leftovers of its folder, and frees the usage', async () => {
      const own = await make.case({ ownerOrganizationId: elsewhere });
      const { id, keys } = await storedImage(t, own);
      const stray = `images/${id}/conversions/crashed/layer-0.tif`;
      await t.blobs.put(stray, Readable.from(Buffer.from('x')));
      await t.database.pool.query(
        `UPDATE organizations SET used_original_bytes = 5000, used_pyramidal_bytes = 900 WHERE id = $1`,
        [elsewhere],
      );

      expect((await call('reader', 'DELETE', `/images/${id}`)).statusCode).toBe(204);
      expect((await call('reader', 'GET', `/images/${id}`)).statusCode).toBe(404);
      for (const key of [...Object.values(keys), stray]) expect(await blobExists(key)).toBe(false);
      expect(await usageOf(t, elsewhere)).toEqual({ original: 4000, pyramidal: 600 });
    });

    it('keeps the files a copy still uses, and removes them with the last copy', async () => {
      const source = await storedImage(t, caseId);
      const destination = await make.case({ ownerOrganizationId: group });
      const copied = await call('member', 'POST', `/images/${source.id}/copy`, { dstCaseId: destination });
      expect(copied.statusCode).toBe(201);

      expect((await call('member', 'DELETE', `/images/${source.id}`)).statusCode).toBe(204);
      for (const key of Object.values(source.keys)) expect(await blobExists(key)).toBe(true);

      expect((await call('member', 'DELETE', `/images/${copied.json().id}`)).statusCode).toBe(204);
      for (const key of Object.values(source.keys)) expect(await blobExists(key)).toBe(false);
    });

    it('refuses a read-only member (403) and a stranger (404)', async () => {
      const id = await make.image(caseId);
      expect((await call('reader', 'DELETE', `/images/${id}`)).statusCode).toBe(403);
      expect((await call('stranger', 'DELETE', `/images/${id}`)).statusCode).toBe(404);
      expect((await call('member', 'GET', `/images/${id}`)).statusCode).toBe(200);
    });
  });

  describe('POST images/{id}/copy', () => {
    it('copies rows that share the files, keeps the status, and counts the bytes into the destination group', async () => {
      const { id } = await storedImage(t, caseId, { filename: 'slide-copy.svs' });
      await t.database.pool.query(
        `INSERT INTO predictions (image_id, model_name, status) VALUES ($1, 'breast-biopsy', 'completed')`,
        [id],
      );
      const destination = await make.case({ ownerOrganizationId: elsewhere });
      const before = await usageOf(t, elsewhere);

      const response = await call('member', 'POST', `/images/${id}/copy`, {
        dstCaseId: destination,
        copyPrediction: true,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ id: expect.any(String), filename: 'slide-copy.svs' });
      const copyId = response.json().id;
      expect(copyId).not.toBe(id);

      const [source, copy] = [
        (await call('member', 'GET', `/images/${id}`)).json(),
        (await call('member', 'GET', `/images/${copyId}`)).json(),
      ];
      expect(copy).toMatchObject({ caseId: destination, status: 'available', associatedImages: ['label'] });
      expect(copy.imageLayerResources).toHaveLength(1);
      expect(copy.imageLayerResources[0].id).not.toBe(source.imageLayerResources[0].id);
      const { rows } = await t.database.pool.query(
        `SELECT i.original_key, i.thumbnail_key, l.pyramid_key,
           (SELECT count(*)::int FROM predictions p WHERE p.image_id = i.id) AS predictions
         FROM images i JOIN image_layers l ON l.image_id = i.id WHERE i.id = ANY($1) ORDER BY i.case_id = $2`,
        [[id, copyId], destination],
      );
      expect(rows[1]).toEqual({ ...rows[0], predictions: 1 });
      expect(await usageOf(t, elsewhere)).toEqual({
        original: before.original + 1000,
        pyramidal: before.pyramidal + 300,
      });
    });

    it('answers 409 "Duplicate file" when the destination has the filename', async () => {
      const { id } = await storedImage(t, caseId, { filename: 'twice.svs' });
      const destination = await make.case({ ownerOrganizationId: group });
      await make.image(destination, { filename: 'twice.svs' });
      const response = await call('member', 'POST', `/images/${id}/copy`, { dstCaseId: destination });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(IMAGE_MESSAGES.duplicateFile);
    });

    it('needs download at the source and upload at the destination', async () => {
      const id = await make.image(caseId);
      const open = await make.case({ ownerOrganizationId: elsewhere });
      const closed = await make.case({ ownerOrganizationId: await make.organization() });
      // The reader may upload in `elsewhere` but may not download from `group`.
      expect((await call('reader', 'POST', `/images/${id}/copy`, { dstCaseId: open })).statusCode).toBe(403);
      expect((await call('member', 'POST', `/images/${id}/copy`, { dstCaseId: closed })).statusCode).toBe(404);
      expect((await call('stranger', 'POST', `/images/${id}/copy`, { dstCaseId: open })).statusCode).toBe(404);
      const readOnlyDestination = await make.case({ ownerOrganizationId: group });
      const other = await make.image(open);
      expect(
        (await call('reader', 'POST', `/images/${other}/copy`, { dstCaseId: readOnlyDestination })).statusCode,
      ).toBe(403);
    });

    it('gives a copy of a still-converting image a conversion of its own', async () => {
      const id = await make.image(caseId, { status: 'processing' });
      const destination = await make.case({ ownerOrganizationId: group });
      const response = await call('member', 'POST', `/images/${id}/copy`, { dstCaseId: destination });
      expect(response.statusCode).toBe(201);
      expect((await call('member', 'GET', `/images/${response.json().id}`)).json().status).toBe('uploaded');
      expect(await convertJobs(t, response.json().id)).toBe(1);
    });
  });

  describe('PUT images/{id}/reprocess', () => {
    it.each(['available', 'process_failed', 'uploaded'] as const)('queues a %s image again (202)', async (status) => {
      const id = await make.image(caseId, {
        status,
        ...(status === 'process_failed'
          ? { processErrorCode: -101, processErrorMessage: 'please reprocess image' }
          : {}),
      });
      const layer = await make.imageLayer(id);
      const response = await call('member', 'PUT', `/images/${id}/reprocess`);
      expect(response.statusCode).toBe(202);
      expect(response.json()).toMatchObject({ id, status: 'uploaded', processError: null, tileSource: null });
      // The previous pyramid stays until the new conversion replaces it.
      expect(response.json().imageLayerResources.map((l: { id: string }) => l.id)).toEqual([layer]);
      const { rows } = await t.database.pool.query(`SELECT process_error_code FROM images WHERE id = $1`, [id]);
      expect(rows[0].process_error_code).toBeNull();
      expect(await convertJobs(t, id)).toBe(1);
    });

    it('answers 409 for a processing image whose conversion is queued or running on a live worker', async () => {
      const id = await make.image(caseId, { status: 'processing' });
      await t.jobs.send('convert', { imageId: id });
      const response = await call('member', 'PUT', `/images/${id}/reprocess`);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(IMAGE_MESSAGES.notReprocessable);
      expect(await convertJobs(t, id)).toBe(1);
    });

    it('queues a processing image again when no live job converts it (its worker died)', async () => {
      const id = await make.image(caseId, { status: 'processing' });
      const response = await call('member', 'PUT', `/images/${id}/reprocess`);
      expect(response.statusCode).toBe(202);
      expect(response.json()).toMatchObject({ id, status: 'uploaded' });
      expect(await convertJobs(t, id)).toBe(1);
    });

    it.each(['reserved', 'upload_failed', 'deleting'] as const)(
      'answers 409 for a %s image and queues nothing',
      async (status) => {
        const id = await make.image(caseId, { status });
        const response = await call('member', 'PUT', `/images/${id}/reprocess`);
        expect(response.statusCode).toBe(409);
        expect(response.json().message).toBe(IMAGE_MESSAGES.notReprocessable);
        expect(await convertJobs(t, id)).toBe(0);
      },
    );

    it('refuses a read-only member (403) and a stranger (404)', async () => {
      const id = await make.image(caseId);
      expect((await call('reader', 'PUT', `/images/${id}/reprocess`)).statusCode).toBe(403);
      expect((await call('stranger', 'PUT', `/images/${id}/reprocess`)).statusCode).toBe(404);
      expect((await call('member', 'PUT', '/images/nope/reprocess')).statusCode).toBe(404);
      expect(await convertJobs(t, id)).toBe(0);
    });
  });
});
