import { describe, expect, it } from 'vitest';
import { DEFAULT_LIST_SEARCH } from '../case-navigation/list-search.ts';
import {
  ALL_ORGANIZATIONS,
  effectiveSearch,
  filterChips,
  nextOrder,
  organizationScope,
  pageRange,
  splitTags,
  withOrganization,
} from './list-state.ts';

const ORG = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

describe('splitTags', () => {
  it('splits at commas, trims, drops blanks and repeats', () => {
    expect(splitTags(['teaching, consult', ' urgent ', '', 'consult', ' , '])).toEqual([
      'teaching',
      'consult',
      'urgent',
    ]);
  });
});

describe('organization scope', () => {
  it('reads default, all and one group', () => {
    expect(organizationScope([])).toEqual({ kind: 'default' });
    expect(organizationScope([ALL_ORGANIZATIONS])).toEqual({ kind: 'all' });
    expect(organizationScope(withOrganization([], ORG))).toEqual({ kind: 'one', id: ORG });
  });

  it('defaults to the current group, and only super users keep "all"', () => {
    const base = { ...DEFAULT_LIST_SEARCH, query: [] };
    expect(effectiveSearch(base, ORG, false).query).toEqual([{ field: 'organizationId', operator: 'is', value: ORG }]);
    const all = { ...base, query: [ALL_ORGANIZATIONS] };
    expect(effectiveSearch(all, ORG, true).query).toEqual([ALL_ORGANIZATIONS]);
    expect(effectiveSearch(all, ORG, false).query).toEqual([{ field: 'organizationId', operator: 'is', value: ORG }]);
    const other = { ...base, query: withOrganization([], OTHER) };
    expect(effectiveSearch(other, ORG, false)).toBe(other);
  });
});

describe('filter bar', () => {
  it('lists field filters with their match mode, then the toggles; leaves out the group', () => {
    const chips = filterChips({
      ...DEFAULT_LIST_SEARCH,
      query: [
        { field: 'organizationId', operator: 'is', value: ORG },
        { field: 'caseNumber', operator: 'is', value: 'S26-*' },
        { field: 'tags', operator: 'contains-all', value: ['teaching', 'consult'] },
        { field: 'imageTags', operator: 'contains-any', value: ['HE'] },
        { field: 'diagnosis', operator: 'is-like', value: '' },
      ],
      starred: true,
      publicLabel: 'Badge-#000000',
      visibility: 'public',
    });
    expect(chips).toEqual([
      { kind: 'field', field: 'caseNumber', text: 'S26-*' },
      { kind: 'field', field: 'tags', text: 'teaching, consult', match: 'all' },
      { kind: 'field', field: 'imageTags', text: 'HE' },
      { kind: 'starred' },
      { kind: 'publicLabel', labelName: 'Badge-#000000' },
      { kind: 'visibility', visibility: 'public' },
    ]);
  });

  it('has nothing to show for the default search', () => {
    expect(filterChips(DEFAULT_LIST_SEARCH)).toEqual([]);
  });
});

describe('pageRange', () => {
  it('gives the 1-based range of the page', () => {
    expect(pageRange(1, 10, 10)).toEqual({ from: 1, to: 10 });
    expect(pageRange(4, 10, 3)).toEqual({ from: 31, to: 33 });
    expect(pageRange(1, 10, 0)).toEqual({ from: 0, to: 0 });
  });
});

describe('nextOrder', () => {
  it('flips the same column and starts others at their natural direction', () => {
    expect(nextOrder({ field: 'createdAt', direction: 'desc' }, 'createdAt')).toEqual({
      field: 'createdAt',
      direction: 'asc',
    });
    expect(nextOrder({ field: 'createdAt', direction: 'desc' }, 'caseNumber')).toEqual({
      field: 'caseNumber',
      direction: 'asc',
    });
    expect(nextOrder({ field: 'caseNumber', direction: 'asc' }, 'createdAt')).toEqual({
      field: 'createdAt',
      direction: 'desc',
    });
  });
});
