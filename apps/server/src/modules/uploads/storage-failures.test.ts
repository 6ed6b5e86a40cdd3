import fs from 'node:fs/promises';
import { MESSAGES } from '@pathology/contract';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { images } from '../../db/schema/index.ts';
import { factories } from '#test/factories.ts';
import { StorageFaults, mountTinyDisk } from '#test/storage-faults.ts';
import { useTestApp } from '#test/test-app.ts';
import {
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

const FULL = { status: 507, message: MESSAGES.storageFull };
const UNAVAILABLE = { status: 503, message: MESSAGES.storageUnavailable };

describe('uploads while the storage is full or cannot be written', () => {
  const faults = new StorageFaults();
  const t = useTestApp({ wrapBlobs: (store) => faults.wrap(store) });
  let base: string;
  let caseId: string;
  let svs: Buffer;

  beforeAll(async () => {
    const make = factories(t.database.db);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const group = await make.organization();
    caseId = await make.case({ ownerOrganizationId: group });
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    svs = await fs.readFile(SMALL_SVS);
  });
  afterEach(() => faults.heal());

  const rowsNamed = async (filename: string) =>
    t.database.db.select().from(images).where(eq(images.filename, filename));

  async function storedBytes(imageId: string): Promise<Buffer> {
    const [row] = await t.database.db.select().from(images).where(eq(images.id, imageId));
    return Buffer.concat(await (await t.blobs.get(row!.originalKey!)).toArray());
  }

  async function postImage(filename: string, body: Buffer) {
    const query = new URLSearchParams({ caseId, filename }).toString();
    const response = await fetch(`${base}/api/v1/images?${query}`, {
      method: 'POST',
      headers: { ...(await t.auth('member')), 'content-type': 'application/octet-stream' },
      body,
    });
    return { response, body: (await response.json()) as { message?: string; id?: string } };
  }

  describe('POST images', () => {
    it.each([
      ['ENOSPC', FULL],
      ['EDQUOT', FULL],
      ['EACCES', UNAVAILABLE],
      ['EROFS', UNAVAILABLE],
      ['EIO', UNAVAILABLE],
    ])(
      'answers %s half-way with the storage message, leaves nothing behind, and stores once it is back',
      async (code, expected) => {
        const filename = `${code.toLowerCase()}.png`;
        faults.fail(code, 1024);
        const failed = await postImage(filename, PNG_BYTES);
        expect(failed.response.status).toBe(expected.status);
        expect(failed.body).toEqual({ message: expected.message });
        expect(failed.response.headers.get('retry-after')).toBe(expected.status === 503 ? '30' : null);
        expect(await rowsNamed(filename)).toEqual([]);
        await eventually(async () => expect(await leftovers(t)).toEqual({ blobs: [], scratch: [] }));

        faults.heal();
        const stored = await postImage(filename, PNG_BYTES);
        expect(stored.response.status).toBe(201);
        expect(sha256(await storedBytes(stored.body.id!))).toBe(sha256(PNG_BYTES));
      },
    );
  });

  describe('tus uploads/images', () => {
    const endpoint = () => `${base}/api/v1/uploads/images`;

    async function call(method: string, url: string, headers: Record<string, string> = {}, body?: Buffer) {
      return fetch(url, { method, headers: { ...TUS, ...(await t.auth('member')), ...headers }, body });
    }

    async function create(filename: string, length: number): Promise<string> {
      const response = await call('POST', endpoint(), {
        'upload-length': String(length),
        'upload-metadata': encodeMetadata({ caseId, filename }),
      });
      expect(response.status).toBe(201);
      return new URL(response.headers.get('location')!, endpoint()).href;
    }

    const patch = (url: string, offset: number, bytes: Buffer) =>
      call('PATCH', url, { ...PATCH_TYPE, 'upload-offset': String(offset) }, bytes);

    async function offsetOf(url: string): Promise<number> {
      const response = await call('HEAD', url);
      expect(response.status).toBe(200);
      return Number(response.headers.get('upload-offset'));
    }

    /** Sends `bytes` from `offset` on in PATCHes of `chunk` bytes, as a tus client does; returns the last answer. */
    async function send(url: string, offset: number, bytes: Buffer, chunk: number): Promise<Response> {
      for (let at = offset; ; at += chunk) {
        const response = await patch(url, at, bytes.subarray(at, at + chunk));
        if (response.status !== 204 || at + chunk >= bytes.length) return response;
      }
    }

    it.each([
      ['ENOSPC', FULL],
      ['EACCES', UNAVAILABLE],
    ])(
      'keeps an upload whose storing failed with %s resumable, and completes it once the storage is back',
      async (code, expected) => {
        const filename = `resumed-${code.toLowerCase()}.svs`;
        const url = await create(filename, svs.length);
        faults.fail(code, 4096);
        const failed = await patch(url, 0, svs);
        expect(failed.status).toBe(expected.status);
        expect(await failed.json()).toEqual({ message: expected.message });
        expect(failed.headers.get('retry-after')).toBe(expected.status === 503 ? '30' : null);
        expect(await rowsNamed(filename)).toEqual([]);

        // The client resumes as tus does: HEAD for the offset, then PATCH the rest.
        faults.heal();
        const offset = await offsetOf(url);
        expect(offset).toBeLessThan(svs.length);
        const done = await patch(url, offset, svs.subarray(offset));
        expect(done.status).toBe(200);
        const { id } = (await done.json()) as { id: string };
        expect(sha256(await storedBytes(id))).toBe(sha256(svs));
        expect(await rowsNamed(filename)).toHaveLength(1);
      },
    );

    // Last, as the tiny disk covers the folder of every resumable upload until it is unmounted.
    it('answers 507 when the upload folder fills up mid-PATCH and resumes from the last byte written', async (context) => {
      const folder = tusFolder(t);
      const filename = 'staged-on-a-full-disk.svs';
      const disk = mountTinyDisk(folder, 256 * 1024);
      if (disk == null) return context.skip('mounting a tmpfs needs root with CAP_SYS_ADMIN');
      try {
        const url = await create(filename, svs.length);
        const failed = await send(url, 0, svs, 64 * 1024);
        expect(failed.status).toBe(507);
        expect(await failed.json()).toEqual({ message: MESSAGES.storageFull });
        const offset = await offsetOf(url);
        expect(offset).toBeGreaterThan(0);
        expect(offset).toBeLessThan(256 * 1024);

        disk.resize(16 * 1024 * 1024);
        const done = await send(url, offset, svs, 512 * 1024);
        expect(done.status).toBe(200);
        const { id } = (await done.json()) as { id: string };
        expect(sha256(await storedBytes(id))).toBe(sha256(svs));
      } finally {
        disk.unmount();
      }
    });
  });
});
