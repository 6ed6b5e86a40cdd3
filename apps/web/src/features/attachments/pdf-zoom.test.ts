import { describe, expect, it } from 'vitest';
import { canZoom, clampPage, stepZoom } from './pdf-zoom.ts';

describe('PDF zoom', () => {
  it('moves to the next step up or down', () => {
    expect(stepZoom(1, 1)).toBe(1.25);
    expect(stepZoom(1, -1)).toBe(0.75);
    expect(stepZoom(1.1, 1)).toBe(1.25);
    expect(stepZoom(1.1, -1)).toBe(1);
  });

  it('stays within the steps', () => {
    expect(stepZoom(3, 1)).toBe(3);
    expect(stepZoom(0.5, -1)).toBe(0.5);
    expect(canZoom(3, 1)).toBe(false);
    expect(canZoom(0.5, -1)).toBe(false);
    expect(canZoom(1, 1)).toBe(true);
  });

  it('keeps page numbers within the document', () => {
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(7, 5)).toBe(5);
    expect(clampPage(3, 5)).toBe(3);
    expect(clampPage(2, 0)).toBe(1);
  });
});
