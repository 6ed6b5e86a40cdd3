import type { CaseSearchRequest } from '@pathology/contract';
import type { CaseNavigation } from '../case-navigation/case-navigation.ts';
import { toSearchRequest, type CaseListSearch } from '../case-navigation/list-search.ts';

/** Previous and next are looked up in pages of this size of the list's search (spec part 1 §4). */
export const NEIGHBOUR_PAGE_SIZE = 50;

/** Where a 0-based result position lies in pages of `pageSize`: the 1-based page and the offset in it. */
export function pageOf(index: number, pageSize: number): { page: number; offset: number } {
  return { page: Math.floor(index / pageSize) + 1, offset: index % pageSize };
}

/**
 * The pages of 50 needed to know the neighbours of `index` (index - 1 and index + 1 within 0..total-1): one page
 * usually, two when the case sits at a page boundary, none for a lone result.
 */
export function neighbourPages(index: number, total: number, pageSize = NEIGHBOUR_PAGE_SIZE): number[] {
  const positions = [index - 1, index + 1].filter((position) => position >= 0 && position < total);
  return [...new Set(positions.map((position) => pageOf(position, pageSize).page))];
}

/** The search request of one neighbour page: the list's search with its own page and the page size of 50. */
export function neighbourPageRequest(search: CaseListSearch, page: number): CaseSearchRequest {
  return toSearchRequest({ ...search, page, limit: NEIGHBOUR_PAGE_SIZE });
}

/** The id at a result position, given the fetched pages of 50 (page number → ids); undefined if not fetched. */
export function idAt(
  index: number,
  pages: ReadonlyMap<number, readonly string[]>,
  pageSize = NEIGHBOUR_PAGE_SIZE,
): string | undefined {
  if (index < 0) return undefined;
  const { page, offset } = pageOf(index, pageSize);
  return pages.get(page)?.[offset];
}

/**
 * The navigation of the neighbour one step away (`step` -1 or +1) from `current`, keeping the list's search; the list
 * page follows the position, so moving past the last case of a page carries on to the next page of the list (and
 * back to the list lands there). The new neighbours beyond are found after the move; the current case is one of them.
 */
export function stepNavigation(current: CaseNavigation, currentId: string, step: -1 | 1): CaseNavigation {
  const index = current.index + step;
  return {
    from: { ...current.from, page: pageOf(index, current.from.limit).page },
    prev: step === 1 ? currentId : undefined,
    next: step === -1 ? currentId : undefined,
    index,
    total: current.total,
  };
}
