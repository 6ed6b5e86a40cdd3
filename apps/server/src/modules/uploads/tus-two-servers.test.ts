import fs from 'node:fs/promises';
import http from 'node:http';
import { IMAGE_MESSAGES } from '@pathology/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { images } from '../../db/schema/index.ts';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';
import { PATCH_TYPE, sha256, SMALL_SVS, TUS, tusPeers } from '#test/uploads.ts';

/**
 * Two API servers on one database and one storage folder, each with its own data folder and connection pool (as
 * two machines behind a load balancer): a resumable upload may go on through either, and two requests writing
 * one upload at once on the two are kept apart by the database's lock.
 */
describe('tus uploads/images across two API servers', () => {
  const one = useTestApp();
  const two = useTestApp({ peer: one });
  let bases: [string, string];
  let caseId: string;
  let svs: Buffer;

  beforeAll(async () => {
    const make = factories(one.database.db);
    bases = [
      await one.app.listen({ port: 0, host: '127.0.0.1' }),
      await two.app.listen({ port: 0, host: '127.0.0.1' }),
    ];
    const group = await make.organization();
    caseId = await make.case({ ownerOrganizationId: group });
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    svs = await fs.readFile(SMALL_SVS);
  });

  const {
    on,
    call,
    create: createOf,
    offsetOn,
  } = tusPeers({
    bases: () => bases,
    auth: () => one.auth('member'),
    caseId: () => caseId,
  });
  const create = (filename: string) => createOf(filename, svs.length);

  it('takes the PATCHes of one upload alternately on each server and stores the identical file', async () => {
    const location = await create('alternating.svs');
    const chunk = Math.ceil(svs.length / 5);
    let last: Response | undefined;
    for (let offset = 0, turn = 0; offset < svs.length; offset += chunk, turn += 1) {
      expect(await offsetOn(turn % 2, location)).toBe(offset);
      last = await call(
        on(turn % 2, location),
        'PATCH',
        { ...PATCH_TYPE, 'upload-offset': String(offset) },
        svs.subarray(offset, offset + chunk),
      );
      expect(last.status).toBe(offset + chunk >= svs.length ? 200 : 204);
    }
    const { id } = (await last!.json()) as { id: string };
    const [row] = await one.database.db.select().from(images).where(eq(images.id, id));
    expect(row).toMatchObject({ status: 'uploaded', size: svs.length });
    expect(sha256(Buffer.concat(await (await one.blobs.get(row!.originalKey!)).toArray()))).toBe(sha256(svs));
    // The conversion is queued for the workers either server shares.
    expect(await one.jobs.alive('convert', { imageId: id })).toBe(true);
  });

  it('refuses with 423 a PATCH on one server while the other writes the upload, and the file stays intact', async () => {
    const location = await create('contended.svs');
    const half = Math.floor(svs.length / 2);
    // A PATCH on server one whose body is still arriving holds the upload.
    const slow = http.request(on(0, location), {
      method: 'PATCH',
      headers: {
        ...TUS,
        ...PATCH_TYPE,
        ...(await one.auth('member')),
        'upload-offset': '0',
        'content-length': String(half),
      },
    });
    const slowAnswer = new Promise<number>((resolve, reject) => {
      slow.once('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      slow.once('error', reject);
    });
    await new Promise<void>((resolve) => slow.write(svs.subarray(0, 4096), () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const rival = await call(on(1, location), 'PATCH', { ...PATCH_TYPE, 'upload-offset': '0' }, svs.subarray(0, half));
    expect(rival.status).toBe(423);
    expect(await rival.json()).toEqual({ message: IMAGE_MESSAGES.uploadBusy });

    slow.end(svs.subarray(4096, half));
    expect(await slowAnswer).toBe(204);
    expect(await offsetOn(1, location)).toBe(half);
    const done = await call(
      on(1, location),
      'PATCH',
      { ...PATCH_TYPE, 'upload-offset': String(half) },
      svs.subarray(half),
    );
    expect(done.status).toBe(200);
    const { id } = (await done.json()) as { id: string };
    const [row] = await one.database.db.select().from(images).where(eq(images.id, id));
    expect(sha256(Buffer.concat(await (await one.blobs.get(row!.originalKey!)).toArray()))).toBe(sha256(svs));
  });
});
