import { PROCESS_ERROR_CODES, type CaseListItem } from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

describe('POST cases/search: which image rows open', () => {
  const t = useTestApp();

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    await make.join(await make.account({ subject: 'reader' }), group, 'member');
    const caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'V26-00001' });
    const fromOriginal = async (displayName: string, values: Parameters<typeof make.image>[1]) =>
      make.imageLayer(await make.image(caseId, { displayName, ...values }), { fromOriginal: true });
    await make.imageLayer(await make.image(caseId, { displayName: 'a available' }));
    await fromOriginal('b converting, served from its original', { status: 'processing', conversionProgress: 37 });
    await make.image(caseId, { displayName: 'c converting, original not readable tile by tile', status: 'processing' });
    await fromOriginal('d failed on its own data', {
      status: 'process_failed',
      processErrorCode: PROCESS_ERROR_CODES.unsupportedData,
    });
    await fromOriginal('e failed for a passing reason', {
      status: 'process_failed',
      processErrorCode: PROCESS_ERROR_CODES.pleaseReprocess,
    });
  });

  it('says viewable for available images and for those served from their original meanwhile, with the progress of a running conversion', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/search',
      headers: await t.auth('reader'),
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    const [item] = response.json().data as CaseListItem[];
    expect(item!.images.map((image) => [image.displayName[0], image.viewable, image.conversionProgress])).toEqual([
      ['a', true, null],
      ['b', true, 37],
      ['c', false, null],
      ['d', false, null],
      ['e', true, null],
    ]);
  });
});
