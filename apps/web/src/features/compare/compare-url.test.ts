import { describe, expect, it } from 'vitest';
import { compareSearch, comparePath, parseCompareSearch, type CompareState } from './compare-url.ts';

const parse = (query: string) => parseCompareSearch(new URLSearchParams(query));

describe('comparison address', () => {
  it('needs 2 to 4 different images', () => {
    expect(parse('images=a')).toBeUndefined();
    expect(parse('images=a,b,c,d,e')).toBeUndefined();
    expect(parse('images=a,a')).toBeUndefined();
    expect(parse('')).toBeUndefined();
    expect(parse('images=a,b')).toEqual({
      imageIds: ['a', 'b'],
      mode: 'absolute',
      leader: 0,
      view: undefined,
      rotations: [0, 0],
      offsets: [
        [0, 0],
        [0, 0],
      ],
      locked: [true, true],
    });
  });

  it('round-trips the mode, leader, view, turns, shifts and locks', () => {
    const state: CompareState = {
      imageIds: ['a', 'b', 'c'],
      mode: 'relative',
      leader: 2,
      view: { centre: [1234.56, 789.01], zoom: 0.0123457 },
      rotations: [0, 90, -12.5],
      offsets: [
        [0, 0],
        [120.5, -30],
        [0, 4],
      ],
      locked: [true, false, true],
    };
    const search = compareSearch(state);
    expect(search).toBe(
      '?images=a,b,c&mode=relative&leader=2&centre=1234.56,789.01&zoom=0.0123457&rotation=0,90,-12.5&offset=0:0,120.5:-30,0:4&unlocked=1',
    );
    expect(parse(search.slice(1))).toEqual(state);
  });

  it('ignores what it cannot read instead of refusing the link', () => {
    const state = parse('images=a,b&leader=7&centre=x,1&zoom=-1&rotation=abc&offset=1:zz')!;
    expect(state.leader).toBe(0);
    expect(state.view).toBeUndefined();
    expect(state.rotations).toEqual([0, 0]);
    expect(state.offsets).toEqual([
      [1, 0],
      [0, 0],
    ]);
  });

  it('opens a plain comparison', () => {
    expect(comparePath(['a', 'b'])).toBe('/compare?images=a,b');
  });
});
