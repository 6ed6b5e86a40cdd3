import { describe, expect, it } from 'vitest';
import { placeBeside } from './details-placement.ts';

const viewer = { width: 1200, height: 700 };
const card = { width: 280, height: 200 };
const toolbar = { minX: 64, minY: 12, maxX: 900, maxY: 56 };
const box = (minX: number, minY: number, maxX: number, maxY: number) => ({ minX, minY, maxX, maxY });

describe('placeBeside', () => {
  it('puts the card right of the shape, level with its top', () => {
    expect(placeBeside(box(100, 200, 300, 400), card, viewer, toolbar)).toEqual({ left: 316, top: 200 });
  });

  it('goes left of a shape at the right edge', () => {
    expect(placeBeside(box(900, 200, 1100, 400), card, viewer, toolbar)).toEqual({ left: 604, top: 200 });
  });

  it('goes below a shape as wide as the view, and never over the toolbar', () => {
    const placed = placeBeside(box(20, 60, 1180, 300), card, viewer, toolbar);
    expect(placed).toEqual({ left: 20, top: 316 });
  });

  it('keeps off the toolbar when the shape is at the top', () => {
    expect(placeBeside(box(100, 0, 300, 100), card, viewer, toolbar).top).toBeGreaterThanOrEqual(toolbar.maxY);
  });

  it('takes the bottom-right corner when the shape fills the view', () => {
    expect(placeBeside(box(-100, -100, 1300, 800), card, viewer, toolbar)).toEqual({ left: 904, top: 484 });
  });
});
