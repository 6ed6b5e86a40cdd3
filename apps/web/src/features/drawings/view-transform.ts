import type { Position } from '@pathology/contract';

/** Image → viewer-element pixels: x' = a·x + c·y + e, y' = b·x + d·y + f (rotation included). */
export interface ViewTransform {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
  /** Screen pixels per image pixel. */
  scale: number;
}

export function toScreen(t: ViewTransform, [x, y]: Position): Position {
  return [t.a * x + t.c * y + t.e, t.b * x + t.d * y + t.f];
}

export function toImage(t: ViewTransform, [sx, sy]: Position): Position {
  const det = t.a * t.d - t.b * t.c;
  const [x, y] = [sx - t.e, sy - t.f];
  return [(t.d * x - t.c * y) / det, (-t.b * x + t.a * y) / det];
}

/** The screen-to-screen transform that carries a picture made under `from` to where `to` shows it. */
export function between(from: ViewTransform, to: ViewTransform): Omit<ViewTransform, 'scale'> {
  const det = from.a * from.d - from.b * from.c;
  // from⁻¹, then to.
  const ia = from.d / det;
  const ib = -from.b / det;
  const ic = -from.c / det;
  const id = from.a / det;
  const ie = -(ia * from.e + ic * from.f);
  const iff = -(ib * from.e + id * from.f);
  return {
    a: to.a * ia + to.c * ib,
    b: to.b * ia + to.d * ib,
    c: to.a * ic + to.c * id,
    d: to.b * ic + to.d * id,
    e: to.a * ie + to.c * iff + to.e,
    f: to.b * ie + to.d * iff + to.f,
  };
}

export function sameTransform(one: ViewTransform, other: ViewTransform): boolean {
  const close = (x: number, y: number) => Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
  return (
    close(one.a, other.a) &&
    close(one.b, other.b) &&
    close(one.c, other.c) &&
    close(one.d, other.d) &&
    Math.abs(one.e - other.e) < 0.01 &&
    Math.abs(one.f - other.f) < 0.01
  );
}
