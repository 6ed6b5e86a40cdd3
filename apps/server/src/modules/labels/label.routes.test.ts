import { PRIVATE_LABEL_NAME } from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';
import type { Caller } from '../../auth/caller.ts';

const STAR = { visibilityType: 'private', labelName: PRIVATE_LABEL_NAME } as const;
const MICROSCOPE = { visibilityType: 'public', labelName: 'Microscope-#0000FF' } as const;

describe('label routes', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let caseId: string;
  let images: string[];
  const callers: Record<string, Caller> = {};

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization();
    for (const sub of ['member', 'reader', 'stranger']) callers[sub] = await make.account({ subject: sub });
    await make.join(callers.member!, group, 'member');
    await make.join(callers.reader!, group, 'read_only');
    caseId = await make.case({ ownerOrganizationId: group });
    images = [await make.image(caseId), await make.image(caseId)];
  });

  const call = async (sub: string, method: 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: await t.auth(sub), ...(payload ? { payload } : {}) });

  const labelsOf = async (sub: string) => {
    const body = (await call(sub, 'POST', '/cases/search', {})).json();
    return body.data.find((item: { id: string }) => item.id === caseId);
  };

  it('stars the case and all its images for the caller only, and unstars them all', async () => {
    const starred = await call('member', 'POST', `/cases/${caseId}/labelleds`, STAR);
    expect(starred.statusCode).toBe(200);
    const row = await labelsOf('member');
    expect(row.privateLabelled).toMatchObject({ labelName: PRIVATE_LABEL_NAME });
    expect(row.images.every((image: { privateLabelled: unknown }) => image.privateLabelled != null)).toBe(true);
    expect((await labelsOf('reader')).privateLabelled).toBeNull();

    await call('member', 'POST', `/cases/${caseId}/labelleds/delete`, STAR);
    const after = await labelsOf('member');
    expect(after.privateLabelled).toBeNull();
    expect(after.images.every((image: { privateLabelled: unknown }) => image.privateLabelled == null)).toBe(true);
  });

  it('puts a public label on the case and every image, visible to everyone who sees the case', async () => {
    await call('member', 'POST', `/images/${images[0]}/labelleds`, MICROSCOPE);
    await call('member', 'POST', `/cases/${caseId}/labelleds`, MICROSCOPE);
    const row = await labelsOf('reader');
    expect(row.publicLabelleds).toEqual([expect.objectContaining({ labelName: MICROSCOPE.labelName })]);
    for (const image of row.images) expect(image.publicLabelleds).toHaveLength(1);
    await call('member', 'POST', `/cases/${caseId}/labelleds/delete`, MICROSCOPE);
    expect((await labelsOf('reader')).publicLabelleds).toEqual([]);
  });

  it('creates and deletes a label on one image', async () => {
    const created = await call('member', 'POST', `/images/${images[1]}/labelleds`, STAR);
    expect(created.statusCode).toBe(201);
    const deleted = await call('member', 'DELETE', `/images/${images[1]}/labelleds/${created.json().id}`);
    expect(deleted.statusCode).toBe(204);
  });

  it('lets a read-only member star but not set public labels (403)', async () => {
    expect((await call('reader', 'POST', `/images/${images[0]}/labelleds`, STAR)).statusCode).toBe(201);
    expect((await call('reader', 'POST', `/cases/${caseId}/labelleds`, MICROSCOPE)).statusCode).toBe(403);
    expect((await call('reader', 'POST', `/images/${images[0]}/labelleds`, MICROSCOPE)).statusCode).toBe(403);
  });

  it("never lets anyone remove another user's star (it does not exist for them)", async () => {
    const mine = await call('member', 'POST', `/images/${images[0]}/labelleds`, STAR);
    const response = await call('reader', 'DELETE', `/images/${images[0]}/labelleds/${mine.json().id}`);
    expect(response.statusCode).toBe(404);
  });

  it.each([
    ['POST', () => `/cases/${caseId}/labelleds`, STAR],
    ['POST', () => `/cases/${caseId}/labelleds/delete`, STAR],
    ['POST', () => `/images/${images[0]}/labelleds`, STAR],
    ['DELETE', () => `/images/${images[0]}/labelleds/00000000-0000-0000-0000-000000000000`, undefined],
  ] as const)('answers 404 to a stranger: %s %s', async (method, url, payload) => {
    expect((await call('stranger', method, url(), payload)).statusCode).toBe(404);
  });

  it('rejects an unknown label name', async () => {
    const response = await call('member', 'POST', `/cases/${caseId}/labelleds`, {
      visibilityType: 'public',
      labelName: 'Skull-#FF00FF',
    });
    expect(response.statusCode).toBe(422);
  });
});
