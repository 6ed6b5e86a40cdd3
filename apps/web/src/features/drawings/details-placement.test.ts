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

  it("keeps off the viewer's panels: the detections panel at the right sends it left of the shape", () => {
    const detections = box(918, 124, 1188, 560);
    const shape = box(500, 200, 700, 400);
    expect(placeBeside(shape, card, viewer, toolbar)).toEqual({ left: 716, top: 200 });
    expect(placeBeside(shape, card, viewer, toolbar, [detections])).toEqual({ left: 204, top: 200 });
  });

  it('takes the bottom-left corner when the shape fills the view and a panel holds the right one', () => {
    const panel = box(930, 400, 1190, 690);
    expect(placeBeside(box(-100, -100, 1300, 800), card, viewer, toolbar, [panel])).toEqual({ left: 16, top: 484 });
  });

  it('takes the bottom-right corner when the shape fills the view', () => {
    expect(placeBeside(box(-100, -100, 1300, 800), card, viewer, toolbar)).toEqual({ left: 904, top: 484 });
  });
});
