import { useQueries } from '@tanstack/react-query';
import type { CaseNavigation } from '../case-navigation/case-navigation.ts';
import { neighbourPageQuery } from './case-detail.queries.ts';
import { idAt, neighbourPageRequest, neighbourPages } from './case-neighbours.ts';

export interface CaseNeighbours {
  prev: string | undefined;
  next: string | undefined;
  /** True while a neighbour is still being looked up. */
  loading: boolean;
}

/**
 * Previous and next case of the list search the detail was opened from. The URL's ids answer at once; the pages of 50
 * around the position are fetched to fill in what the URL lacks (e.g. after stepping past a list page boundary).
 */
export function useCaseNeighbours(navigation: CaseNavigation | undefined): CaseNeighbours {
  const pages = navigation ? neighbourPages(navigation.index, navigation.total) : [];
  const needed = navigation != null && (navigation.prev == null || navigation.next == null);
  const results = useQueries({
    queries: navigation
      ? pages.map((page) => ({ ...neighbourPageQuery(neighbourPageRequest(navigation.from, page)), enabled: needed }))
      : [],
  });
  if (!navigation) return { prev: undefined, next: undefined, loading: false };
  const fetched = new Map<number, string[]>();
  results.forEach((result, at) => {
    const page = pages[at];
    if (result.data && page !== undefined)
      fetched.set(
        page,
        result.data.data.map((item) => item.id),
      );
  });
  const prev = navigation.index > 0 ? (navigation.prev ?? idAt(navigation.index - 1, fetched)) : undefined;
  const next =
    navigation.index < navigation.total - 1 ? (navigation.next ?? idAt(navigation.index + 1, fetched)) : undefined;
  return { prev, next, loading: results.some((result) => result.isLoading) };
}
