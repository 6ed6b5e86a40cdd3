import type { CaseSearchRequest, CaseSearchResponse } from '@pathology/contract';
import type { Page } from 'playwright-core';
import { accessToken } from './sign-in.ts';

/** POST cases/search as the signed-in user, to know what the list should show. */
export async function searchCasesApi(page: Page, request: CaseSearchRequest): Promise<CaseSearchResponse> {
  const response = await page.request.post('/api/v1/cases/search', {
    headers: { Authorization: `Bearer ${await accessToken(page)}` },
    data: request,
  });
  if (response.status() !== 200) throw new Error(`cases/search answered ${response.status()}`);
  return (await response.json()) as CaseSearchResponse;
}

/** A wildcard case-number prefix and two tags that together match at least one visible case. */
export async function findTwoTagSearch(
  page: Page,
): Promise<{ caseNumber: string; tags: [string, string]; expected: CaseSearchResponse }> {
  const all = await searchCasesApi(page, { limit: 100, order: { field: 'caseNumber', direction: 'asc' } });
  const candidate = all.data.find((item) => item.tags.length >= 2);
  if (!candidate) throw new Error('no demo case with two tags');
  const tags: [string, string] = [candidate.tags[0] ?? '', candidate.tags[1] ?? ''];
  const caseNumber = `${candidate.caseNumber.slice(0, 3)}*`;
  const expected = await searchCasesApi(page, {
    limit: 100,
    order: { field: 'createdAt', direction: 'desc' },
    query: [
      { field: 'caseNumber', operator: 'is', value: caseNumber },
      { field: 'tags', operator: 'contains-all', value: tags },
    ],
  });
  return { caseNumber, tags, expected };
}

type ListImage = CaseSearchResponse['data'][number]['images'][number];

/**
 * The demo seed has no slides, so a row's images are drawn from a copy of the real response with four images of
 * each status added to its first case (the page's own requests for them are never made).
 */
export function withSampleImages(response: CaseSearchResponse): CaseSearchResponse {
  const [first, ...rest] = response.data;
  if (!first) return response;
  const image = (n: number, status: ListImage['status'], extra: Partial<ListImage> = {}): ListImage => ({
    id: `00000000-0000-4000-8000-00000000000${n}`,
    filename: `${first.caseNumber}-${n}.svs`,
    displayName: `${first.caseNumber}-${n}.svs`,
    status,
    organ: first.organ,
    modelName: null,
    specimenType: first.specimenType,
    imageTags: [],
    magnification: null,
    predictionSummary: [],
    privateLabelled: null,
    publicLabelleds: [],
    commentCount: 0,
    annotationCount: 0,
    viewable: status === 'available',
    conversionProgress: null,
    size: 1024,
    createdAt: first.createdAt,
    ...extra,
  });
  const images = [
    image(1, 'available', {
      magnification: 40,
      imageTags: ['HE', 'frozen-section'],
      annotationCount: 3,
      commentCount: 2,
      publicLabelleds: [{ id: '00000000-0000-4000-8000-0000000000a1', labelName: 'Microscope-#0000FF' }],
    }),
    image(2, 'available', { magnification: 20, imageTags: ['IHC'] }),
    image(3, 'uploaded'),
    // Still converting, its original served meanwhile: it opens but does not select.
    image(4, 'processing', { viewable: true, conversionProgress: 40 }),
    image(5, 'process_failed'),
    // Converting and not viewable meanwhile (a format served only from its pyramid).
    image(6, 'processing'),
  ];
  const counts = { ...first.imageStatusCounts, available: 2, uploaded: 1, processing: 2, process_failed: 1 };
  return {
    ...response,
    data: [{ ...first, images, numberOfImages: images.length, imageStatusCounts: counts }, ...rest],
  };
}
