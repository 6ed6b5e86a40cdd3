import { describe, expect, it } from 'vitest';
import { addPick, completePairs } from './point-picking.ts';

describe('picking matching points', () => {
  it('fills each side in order, pairs the nth click on one slide with the nth on the other, up to the limit', () => {
    let pairs = addPick([], 'reference', [1, 1], 3);
    pairs = addPick(pairs, 'reference', [2, 2], 3);
    pairs = addPick(pairs, 'other', [10, 10], 3);
    expect(pairs).toEqual([{ reference: [1, 1], other: [10, 10] }, { reference: [2, 2] }]);
    expect(completePairs(pairs)).toEqual([
      [
        [10, 10],
        [1, 1],
      ],
    ]);
    pairs = addPick(pairs, 'other', [20, 20], 3);
    pairs = addPick(pairs, 'other', [30, 30], 3);
    pairs = addPick(pairs, 'other', [40, 40], 3);
    expect(pairs).toHaveLength(3);
    expect(completePairs(pairs)).toHaveLength(2);
  });
});
