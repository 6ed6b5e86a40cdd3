import { describe, expect, it } from 'vitest';
import { caseDetailHref, caseListHref, readCaseNavigation } from './case-navigation.ts';
import { DEFAULT_LIST_SEARCH, hasFilters, readListSearch, toSearchRequest, writeListSearch } from './list-search.ts';

const search = {
  ...DEFAULT_LIST_SEARCH,
  page: 3,
  limit: 20,
  query: [{ field: 'caseNumber' as const, operator: 'is' as const, value: 'S26-*' }],
  order: { field: 'caseNumber' as const, direction: 'asc' as const },
  starred: true,
};

describe('list search in the URL', () => {
  it('round-trips through URL parameters', () => {
    expect(readListSearch(writeListSearch(search))).toEqual(search);
  });

  it('falls back to defaults for malformed or out-of-range values', () => {
    const params = new URLSearchParams({ page: '0', limit: '-5', query: '{oops', order: '{"field":"x"}' });
    expect(readListSearch(params)).toEqual(DEFAULT_LIST_SEARCH);
  });

  it('builds the search request', () => {
    expect(toSearchRequest(search)).toEqual({
      query: search.query,
      order: search.order,
      page: 3,
      limit: 20,
      starred: true,
      visibility: 'all',
    });
  });

  it('counts an id lookup as no filter', () => {
    expect(hasFilters({ ...DEFAULT_LIST_SEARCH, query: [{ field: 'id', operator: 'is', value: 'x' }] })).toBe(false);
    expect(hasFilters(search)).toBe(true);
  });
});

describe('case detail navigation', () => {
  it('carries the search, neighbours, index and total', () => {
    const href = caseDetailHref('c-2', { from: search, prev: 'c-1', next: 'c-3', index: 41, total: 120 }, '/comments');
    expect(href.startsWith('/cases/c-2/comments?')).toBe(true);
    const navigation = readCaseNavigation(new URL(href, 'http://x').searchParams);
    expect(navigation).toEqual({ from: search, prev: 'c-1', next: 'c-3', index: 41, total: 120 });
    expect(caseListHref(navigation!.from)).toBe(`/cases?${writeListSearch(search).toString()}`);
  });

  it('is absent on a link opened without a list', () => {
    expect(readCaseNavigation(new URLSearchParams())).toBeUndefined();
  });
});
