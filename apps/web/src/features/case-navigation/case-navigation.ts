import { readListSearch, writeListSearch, type CaseListSearch } from './list-search.ts';

/** Where a case detail was opened from: the list search, the neighbours and the position in the results. */
export interface CaseNavigation {
  from: CaseListSearch;
  prev: string | undefined;
  next: string | undefined;
  /** 0-based position of the case among all results of the search. */
  index: number;
  total: number;
}

/** Case detail link of part 1 §2: the list's search (`from`), previous and next ids, index and total. */
export function caseDetailHref(caseId: string, navigation: CaseNavigation, subPath = ''): string {
  const params = new URLSearchParams();
  params.set('from', writeListSearch(navigation.from).toString());
  if (navigation.prev != null) params.set('prev', navigation.prev);
  if (navigation.next != null) params.set('next', navigation.next);
  params.set('index', String(navigation.index));
  params.set('total', String(navigation.total));
  return `/cases/${encodeURIComponent(caseId)}${subPath}?${params.toString()}`;
}

/** The navigation a detail URL carries, or undefined when it was opened without a list (a shared link). */
export function readCaseNavigation(params: URLSearchParams): CaseNavigation | undefined {
  const from = params.get('from');
  const index = Number(params.get('index'));
  const total = Number(params.get('total'));
  if (from == null || !Number.isInteger(index) || index < 0 || !Number.isInteger(total) || total < 1) return undefined;
  return {
    from: readListSearch(new URLSearchParams(from)),
    prev: params.get('prev') ?? undefined,
    next: params.get('next') ?? undefined,
    index,
    total,
  };
}

/** The list URL to go back to, with the search the detail was opened from. */
export function caseListHref(search: CaseListSearch): string {
  return `/cases?${writeListSearch(search).toString()}`;
}
