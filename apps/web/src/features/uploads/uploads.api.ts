import { CaseSchema, CaseSearchResponseSchema, type SearchExpression } from '@pathology/contract';
import { api } from '../../api/client.ts';
import type { CaseMatch } from './upload-dialog.state.ts';

export const uploadQueryKeys = {
  all: ['uploads'] as const,
  caseNumbers: (organizationId: string, text: string) => ['uploads', 'case-numbers', organizationId, text] as const,
};

export interface CaseNumberLookup {
  /** Case numbers of the group containing the text (like-match), for the picker's options. */
  options: string[];
  /** The case with exactly that number, if the group has one. */
  exact: CaseMatch | null;
}

const LIKE_LIMIT = 20;

/** The case picker's live search (part 1 §5): like-match on caseNumber in the group, plus the exact match. */
export async function lookupCaseNumber(
  organizationId: string,
  text: string,
  signal?: AbortSignal,
): Promise<CaseNumberLookup> {
  const group: SearchExpression = { field: 'organizationId', operator: 'is', value: organizationId };
  const search = (expression: SearchExpression, limit: number) =>
    api.post(
      '/cases/search',
      { query: [group, expression], order: { field: 'caseNumber', direction: 'asc' }, page: 1, limit },
      { signal, timeout: false, schema: CaseSearchResponseSchema },
    );
  const [like, exact] = await Promise.all([
    search({ field: 'caseNumber', operator: 'is-like', value: text }, LIKE_LIMIT),
    search({ field: 'caseNumber', operator: 'is', value: text }, 1),
  ]);
  const found = exact.data.find((item) => item.caseNumber === text);
  return {
    options: [...new Set(like.data.map((item) => item.caseNumber))],
    exact: found
      ? {
          id: found.id,
          caseNumber: found.caseNumber,
          filenames: found.images.map((image) => image.filename),
          imageCount: found.numberOfImages,
        }
      : null,
  };
}

/** POST cases in the group; the new case's id. */
export async function createCaseInGroup(caseNumber: string, organizationId: string): Promise<string> {
  const created = await api.post('/cases', { caseNumber, ownerOrganizationId: organizationId }, { schema: CaseSchema });
  return created.id;
}
