import type { Position } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { simplifyPath } from './simplify-path.ts';

/** Distance from p to the segment a–b. */
function segmentDistance(p: Position, a: Position, b: Position): number {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

describe('simplifyPath', () => {
  it('keeps the two ends of a straight line and nothing between', () => {
    const line = Array.from({ length: 100 }, (_, i): Position => [i, 2 * i]);
    expect(simplifyPath(line, 0.5)).toEqual([
      [0, 0],
      [99, 198],
    ]);
  });

  it('keeps the corners of a square whose sides wobble less than the tolerance', () => {
    const square: Position[] = [];
    for (let i = 0; i < 100; i++) square.push([i, i % 2 === 0 ? 0 : 0.3]);
    for (let i = 0; i < 100; i++) square.push([100 + (i % 2 === 0 ? 0 : 0.3), i]);
    for (let i = 0; i < 100; i++) square.push([100 - i, 100]);
    for (let i = 0; i <= 100; i++) square.push([0, 100 - i]);
    const simplified = simplifyPath(square, 1);
    expect(simplified.length).toBeLessThanOrEqual(6);
    for (const corner of [
      [0, 0],
      [100, 100],
      [0, 100],
    ]) {
      expect(simplified.some(([x, y]) => Math.hypot(x - corner[0]!, y - corner[1]!) <= 1)).toBe(true);
    }
  });

  it('moves no point of a lobed outline by more than the tolerance, and keeps its ends', () => {
    const outline: Position[] = [];
    for (let i = 0; i < 500; i++) {
      const angle = (2 * Math.PI * i) / 500;
      const r = 100 * (0.8 + 0.2 * Math.sin(5 * angle)) + ((i * 7919) % 13) / 13;
      outline.push([200 + r * Math.cos(angle), 200 + r * Math.sin(angle)]);
    }
    outline.push(outline[0]!);
    for (const tolerance of [0.5, 2, 8]) {
      const simplified = simplifyPath(outline, tolerance);
      expect(simplified.length).toBeLessThan(outline.length);
      expect(simplified[0]).toEqual(outline[0]);
      expect(simplified.at(-1)).toEqual(outline.at(-1));
      const kept = new Set(outline.map(([x, y]) => `${x},${y}`));
      expect(simplified.every(([x, y]) => kept.has(`${x},${y}`))).toBe(true);
      for (const point of outline) {
        const nearest = Math.min(...simplified.slice(1).map((end, i) => segmentDistance(point, simplified[i]!, end)));
        // The radial pass may drop a point up to the tolerance from the one kept, and the
        // Douglas–Peucker pass one up to the tolerance from the line: together at most twice.
        expect(nearest).toBeLessThanOrEqual(2 * tolerance + 1e-9);
      }
    }
  });

  it('returns short paths whole, as a zoomed-out screen still shows their few points', () => {
    expect(simplifyPath([[1, 2]], 5)).toEqual([[1, 2]]);
    const rectangle: Position[] = [
      [0, 0],
      [0.1, 0],
      [0.1, 0.1],
      [0, 0.1],
      [0, 0],
    ];
    expect(simplifyPath(rectangle, 5)).toEqual(rectangle);
  });
});
