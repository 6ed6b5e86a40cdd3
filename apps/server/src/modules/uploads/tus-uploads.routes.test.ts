import fs from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_MESSAGES, MESSAGES, UPLOAD_IMAGE_ID_HEADER } from '@pathology/contract';
import { eq } from 'drizzle-orm';
import * as tus from 'tus-js-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { images } from '../../db/schema/index.ts';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';
import {
  cutUpload,
  encodeMetadata,
  eventually,
  leftovers,
  PATCH_TYPE,
  PNG_BYTES,
  sha256,
  SMALL_SVS,
  TUS,
  tusFolder,
} from '#test/uploads.ts';

describe('tus uploads/images (real HTTP)', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let base: string;
  let caseId: string;
  let svs: Buffer;

  beforeAll(async () => {
    make = factories(t.database.db);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const group = await make.organization();
    caseId = await make.case({ ownerOrganizationId: group });
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    await make.join(await make.account({ subject: 'colleague' }), group, 'member');
    await make.join(await make.account({ subject: 'reader' }), group, 'read_only');
    await make.image(caseId, { filename: 'taken.svs' });
    svs = await fs.readFile(SMALL_SVS);
  });

  const endpoint = () => `${base}/api/v1/uploads/images`;
  const tusDir = () => tusFolder(t);

  async function call(sub: string, method: string, url: string, headers: Record<string, string> = {}, body?: Buffer) {
    return fetch(url, { method, headers: { ...TUS, ...(await t.auth(sub)), ...headers }, body });
  }

  async function create(fields: Record<string, string>, length: number, sub = 'member') {
    return call(sub, 'POST', endpoint(), {
      'upload-length': String(length),
      'upload-metadata': encodeMetadata({ caseId, ...fields }),
    });
  }

  async function createdUrl(filename: string, length: number): Promise<string> {
    const response = await create({ filename }, length);
    expect(response.status).toBe(201);
    return new URL(response.headers.get('location')!, endpoint()).href;
  }

  async function offsetOf(url: string, sub = 'member'): Promise<number> {
    const response = await call(sub, 'HEAD', url);
    expect(response.status).toBe(200);
    return Number(response.headers.get('upload-offset'));
  }

  async function storedBytes(imageId: string): Promise<Buffer> {
    const [row] = await t.database.db.select().from(images).where(eq(images.id, imageId));
    expect(row).toMatchObject({ caseId, status: 'uploaded' });
    return Buffer.concat(await (await t.blobs.get(row!.originalKey!)).toArray());
  }

  /** The upload's file and its .json are gone (deleted once the response is written, hence the polling). */
  async function expectFilesGone(url: string): Promise<void> {
    const id = url.split('/').at(-1)!;
    await eventually(async () =>
      expect((await fs.readdir(tusDir())).filter((name) => name.startsWith(id))).toEqual([]),
    );
  }

  /** Runs a refused request and checks it left no file in the tus folder. */
  async function expectNoNewFile<T>(refused: () => Promise<T>): Promise<T> {
    const before = await fs.readdir(tusDir());
    const result = await refused();
    expect(await fs.readdir(tusDir())).toEqual(before);
    return result;
  }

  it('resumes after a cut connection from the offset HEAD gives, and stores the identical file', async () => {
    const url = await createdUrl('resumed.svs', svs.length);
    const half = Math.floor(svs.length / 2);
    const first = await call('member', 'PATCH', url, { ...PATCH_TYPE, 'upload-offset': '0' }, svs.subarray(0, half));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe(String(half));

    const quarter = Math.floor(svs.length / 4);
    await cutUpload(url, {
      method: 'PATCH',
      headers: { ...TUS, ...PATCH_TYPE, ...(await t.auth('member')), 'upload-offset': String(half) },
      body: svs.subarray(half, half + quarter),
      declaredLength: svs.length - half,
    });
    const offset = await offsetOf(url);
    expect(offset).toBeGreaterThan(half);
    expect(offset).toBeLessThanOrEqual(half + quarter);

    const last = await call(
      'member',
      'PATCH',
      url,
      { ...PATCH_TYPE, 'upload-offset': String(offset) },
      svs.subarray(offset),
    );
    expect(last.status).toBe(200);
    expect(last.headers.get('content-type')).toContain('application/json');
    const body = (await last.json()) as { id: string; filename: string };
    expect(body).toEqual({ id: expect.any(String), filename: 'resumed.svs' });
    expect(sha256(await storedBytes(body.id))).toBe(sha256(svs));
    await expectFilesGone(url);
  });

  it('uploads with tus-js-client in chunks', async () => {
    const { authorization } = await t.auth('member');
    let url = '';
    const lastBody = await new Promise<string>((resolve, reject) => {
      const upload = new tus.Upload(svs, {
        endpoint: endpoint(),
        chunkSize: 256 * 1024,
        retryDelays: [],
        headers: { authorization },
        metadata: { caseId, filename: 'client.svs', metadata: JSON.stringify({ organ: null }) },
        onUploadUrlAvailable: () => void (url = upload.url ?? ''),
        onSuccess: ({ lastResponse }) => resolve(lastResponse.getBody()),
        onError: reject,
      });
      upload.start();
    });
    const { id } = JSON.parse(lastBody) as { id: string };
    expect(sha256(await storedBytes(id))).toBe(sha256(svs));
    expect(url).toContain('/api/v1/uploads/images/');
    // The upload's id in its URL is the image's id, as the README says.
    expect(url.split('/').at(-1)).toBe(id);
    await expectFilesGone(url);
  });

  it('stores an upload whose server died after its last byte and before storing it, when tus-js-client resumes it', async () => {
    const url = await createdUrl('unstored.svs', svs.length);
    const allButOne = svs.subarray(0, -1);
    const first = await call('member', 'PATCH', url, { ...PATCH_TYPE, 'upload-offset': '0' }, allButOne);
    expect(first.status).toBe(204);
    // What a server killed between writing the last byte and storing the file leaves: the whole file, staged.
    await fs.appendFile(path.join(tusDir(), url.split('/').at(-1)!), svs.subarray(-1));

    const { authorization } = await t.auth('member');
    const lastBody = await new Promise<string>((resolve, reject) => {
      const upload = new tus.Upload(svs, {
        uploadUrl: url,
        retryDelays: [],
        headers: { authorization },
        onSuccess: ({ lastResponse }) => resolve(lastResponse.getBody()),
        onError: reject,
      });
      upload.start();
    });
    // The HEAD said one byte short, so the client sent it again and storing ran (not a bodiless "success").
    const { id } = JSON.parse(lastBody) as { id: string };
    expect(sha256(await storedBytes(id))).toBe(sha256(svs));
    await expectFilesGone(url);
  });

  it('names the stored image on the HEAD of an upload whose server died after storing it and before answering', async () => {
    const url = await createdUrl('answer-lost.svs', svs.length);
    const id = url.split('/').at(-1)!;
    const info = path.join(tusDir(), `${id}.json`);
    const infoBefore = await fs.readFile(info);
    const last = await call('member', 'PATCH', url, { ...PATCH_TYPE, 'upload-offset': '0' }, svs);
    expect(last.status).toBe(200);
    await expectFilesGone(url);
    // What a server killed after storing the file and before answering leaves: its info, the file moved away.
    await fs.writeFile(info, infoBefore);

    const head = await call('member', 'HEAD', url);
    expect(head.headers.get('upload-offset')).toBe(String(svs.length));
    expect(head.headers.get(UPLOAD_IMAGE_ID_HEADER)).toBe(id);
    // Another account learns nothing of it.
    expect((await call('colleague', 'HEAD', url)).headers.get(UPLOAD_IMAGE_ID_HEADER)).toBeNull();

    const { authorization } = await t.auth('member');
    const named = await new Promise<string | undefined>((resolve, reject) => {
      const upload = new tus.Upload(svs, {
        uploadUrl: url,
        retryDelays: [],
        headers: { authorization },
        onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader(UPLOAD_IMAGE_ID_HEADER)),
        onError: reject,
      });
      upload.start();
    });
    expect(named).toBe(id);
    expect(sha256(await storedBytes(id))).toBe(sha256(svs));
    // The sweep would take the left info away after the expiration; the next tests count the folder's files.
    await fs.rm(info);
  });

  it('hides an upload from every other account: HEAD, PATCH and DELETE answer 404', async () => {
    const url = await createdUrl('private.svs', svs.length);
    const offset = { ...PATCH_TYPE, 'upload-offset': '0' };
    expect((await call('colleague', 'HEAD', url)).status).toBe(404);
    expect((await call('colleague', 'PATCH', url, offset, svs.subarray(0, 1024))).status).toBe(404);
    expect((await call('colleague', 'DELETE', url)).status).toBe(404);
    expect(await offsetOf(url)).toBe(0);
    expect((await call('member', 'DELETE', url)).status).toBe(204);
    expect((await call('member', 'HEAD', url)).status).toBe(404);
    await expectFilesGone(url);
  });

  it.each([
    ['an invisible case', 'stranger', { filename: 'a.svs' }, 404, undefined],
    ['no upload right', 'reader', { filename: 'a.svs' }, 403, undefined],
    ['a taken name', 'member', { filename: 'taken.svs' }, 409, IMAGE_MESSAGES.duplicateFile],
    ['an unknown extension', 'member', { filename: 'a.xyz' }, 415, IMAGE_MESSAGES.unknownExtension],
    ['an attachment type', 'member', { filename: 'a.pdf' }, 415, IMAGE_MESSAGES.unsupportedFileType],
  ])('refuses to create an upload for %s before any byte', async (_what, sub, fields, status, message) => {
    const response = await expectNoNewFile(() => create(fields, svs.length, sub));
    expect(response.status).toBe(status);
    expect(response.headers.get('location')).toBeNull();
    const body = (await response.json()) as { message: string };
    if (message != null) expect(body).toEqual({ message });
  });

  it('refuses invalid fields with 422 and one message per field', async () => {
    const response = await expectNoNewFile(() => create({ filename: '../x.svs' }, svs.length));
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: unknown }).errors).toEqual({
      filename: IMAGE_MESSAGES.invalidFilename,
    });
    const noCase = await expectNoNewFile(() =>
      call('member', 'POST', endpoint(), {
        'upload-length': '10',
        'upload-metadata': encodeMetadata({ filename: 'a.svs' }),
      }),
    );
    expect(noCase.status).toBe(422);
  });

  it('refuses a NUL character in the metadata with 422 naming the field, before any byte', async () => {
    const fields = { filename: 'nul.svs', displayName: 'a\0b' };
    const response = await expectNoNewFile(() => create(fields, svs.length));
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: unknown }).errors).toEqual({
      displayName: MESSAGES.fieldNulCharacter,
    });
  });

  it('answers the last PATCH with the ingest error and deletes the partial file (PNG bytes named .svs)', async () => {
    const url = await createdUrl('disguised.svs', PNG_BYTES.length);
    const response = await call('member', 'PATCH', url, { ...PATCH_TYPE, 'upload-offset': '0' }, PNG_BYTES);
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ message: IMAGE_MESSAGES.contentDoesNotMatchExtension });
    expect((await call('member', 'HEAD', url)).status).toBe(404);
    await expectFilesGone(url);
    expect(await leftovers(t)).toEqual({ blobs: [], scratch: [] });
  });

  it('finishes an upload sent with its creation request (creation-with-upload)', async () => {
    const response = await call(
      'member',
      'POST',
      endpoint(),
      {
        ...PATCH_TYPE,
        'upload-length': String(svs.length),
        'upload-metadata': encodeMetadata({ caseId, filename: 'one-shot.svs', displayName: 'One shot' }),
      },
      svs,
    );
    expect(response.status).toBe(200);
    const { id } = (await response.json()) as { id: string };
    const [row] = await t.database.db.select().from(images).where(eq(images.id, id));
    expect(row).toMatchObject({ displayName: 'One shot', size: svs.length });
    await eventually(async () => expect(await fs.readdir(tusDir())).toEqual([]));
  });

  it('is described in the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(document.paths['/api/v1/uploads/images'].post.operationId).toBe('createResumableImageUpload');
    expect(document.paths['/api/v1/uploads/images/{uploadId}'].patch.description).toContain('tus');
  });
});
