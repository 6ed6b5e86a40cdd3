import { describe, expect, it } from 'vitest';
import { between, sameTransform, toImage, toScreen, type ViewTransform } from './view-transform.ts';

const rotated = (angle: number, scale: number, e: number, f: number): ViewTransform => ({
  a: scale * Math.cos(angle),
  b: scale * Math.sin(angle),
  c: -scale * Math.sin(angle),
  d: scale * Math.cos(angle),
  e,
  f,
  scale,
});

describe('view transforms', () => {
  it('go from image to screen and back, rotated', () => {
    const t = rotated(Math.PI / 2, 0.25, 400, 30);
    const screen = toScreen(t, [1000, 200]);
    expect(screen[0]).toBeCloseTo(350, 9);
    expect(screen[1]).toBeCloseTo(280, 9);
    const back = toImage(t, screen);
    expect(back[0]).toBeCloseTo(1000, 9);
    expect(back[1]).toBeCloseTo(200, 9);
  });

  it('carry a picture made at one view to where the next view shows it', () => {
    const from = rotated(0.3, 0.5, 10, 20);
    const to = rotated(0.3, 2, -300, 45);
    const move = between(from, to);
    const image: [number, number] = [123, 456];
    const [x, y] = toScreen(from, image);
    const carried = [move.a * x + move.c * y + move.e, move.b * x + move.d * y + move.f];
    const expected = toScreen(to, image);
    expect(carried[0]).toBeCloseTo(expected[0], 6);
    expect(carried[1]).toBeCloseTo(expected[1], 6);
    expect(sameTransform(from, { ...from })).toBe(true);
    expect(sameTransform(from, to)).toBe(false);
  });
});
