import { describe, expect, it } from 'vitest';
import { DEFAULT_LIST_SEARCH } from '../case-navigation/list-search.ts';
import { idAt, neighbourPageRequest, neighbourPages, pageOf, stepNavigation } from './case-neighbours.ts';

describe('neighbour page arithmetic', () => {
  it('places a position in pages of 50', () => {
    expect(pageOf(0, 50)).toEqual({ page: 1, offset: 0 });
    expect(pageOf(49, 50)).toEqual({ page: 1, offset: 49 });
    expect(pageOf(50, 50)).toEqual({ page: 2, offset: 0 });
    expect(pageOf(123, 50)).toEqual({ page: 3, offset: 23 });
  });

  it('needs one page inside a page and two at a boundary', () => {
    expect(neighbourPages(10, 200)).toEqual([1]);
    expect(neighbourPages(49, 200)).toEqual([1, 2]);
    expect(neighbourPages(50, 200)).toEqual([1, 2]);
    expect(neighbourPages(99, 200)).toEqual([2, 3]);
  });

  it('stops at the ends of the results', () => {
    expect(neighbourPages(0, 200)).toEqual([1]);
    expect(neighbourPages(199, 200)).toEqual([4]);
    expect(neighbourPages(0, 1)).toEqual([]);
  });

  it('reads ids across the fetched pages', () => {
    const pages = new Map([
      [1, Array.from({ length: 50 }, (_, i) => `a${i}`)],
      [2, ['b0', 'b1']],
    ]);
    expect(idAt(49, pages)).toBe('a49');
    expect(idAt(50, pages)).toBe('b0');
    expect(idAt(51, pages)).toBe('b1');
    expect(idAt(52, pages)).toBeUndefined();
    expect(idAt(-1, pages)).toBeUndefined();
    expect(idAt(150, pages)).toBeUndefined();
  });

  it('asks for the list search with the neighbour page and a page size of 50', () => {
    const search = { ...DEFAULT_LIST_SEARCH, page: 7, limit: 10, starred: true };
    expect(neighbourPageRequest(search, 2)).toMatchObject({ page: 2, limit: 50, starred: true, order: search.order });
  });
});

describe('stepping to a neighbour', () => {
  const from = { ...DEFAULT_LIST_SEARCH, page: 1, limit: 10 };

  it('moves the list page along when crossing its boundary (wraps to the next page)', () => {
    const next = stepNavigation({ from, prev: 'c8', next: 'c10', index: 9, total: 25 }, 'c9', 1);
    expect(next).toEqual({ from: { ...from, page: 2 }, prev: 'c9', next: undefined, index: 10, total: 25 });
  });

  it('moves back to the previous list page', () => {
    const back = stepNavigation(
      { from: { ...from, page: 2 }, prev: 'c9', next: 'c11', index: 10, total: 25 },
      'c10',
      -1,
    );
    expect(back).toEqual({ from: { ...from, page: 1 }, prev: undefined, next: 'c10', index: 9, total: 25 });
  });

  it('stays on the list page inside it', () => {
    expect(stepNavigation({ from, prev: 'c3', next: 'c5', index: 4, total: 25 }, 'c4', 1).from.page).toBe(1);
  });
});
