import { describe, expect, it } from 'vitest';
import { addPick, canPick, completePairs, insideImage } from './point-picking.ts';

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

  it('knows when a side is full, so a further click is refused with a word rather than dropped', () => {
    const full = [{ reference: [1, 1] as [number, number] }, { reference: [2, 2] as [number, number] }];
    expect(canPick(full, 'reference', 2)).toBe(false);
    expect(canPick(full, 'other', 2)).toBe(true);
    expect(canPick(full, 'reference', 3)).toBe(true);
  });

  it('takes points on the image only, not on the glass around it', () => {
    expect(insideImage([0, 0], [100, 50])).toBe(true);
    expect(insideImage([100, 50], [100, 50])).toBe(true);
    expect(insideImage([-0.5, 10], [100, 50])).toBe(false);
    expect(insideImage([50, 50.5], [100, 50])).toBe(false);
  });
});
