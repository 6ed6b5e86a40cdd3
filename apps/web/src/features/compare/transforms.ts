import type { ImagePoint } from '@pathology/contract';

/**
 * A 2-D affine map x' = a·x + c·y + e, y' = b·x + d·y + f (DOMMatrix's layout), on coordinates with y pointing down,
 * as image pixels and the screen have it. A positive angle therefore turns clockwise on screen, as OpenSeadragon's
 * rotation does.
 */
export interface Affine {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

export const IDENTITY: Affine = { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 };

const RADIANS = Math.PI / 180;

export function apply(m: Affine, [x, y]: ImagePoint): ImagePoint {
  return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
}

/** `outer` after `inner`: compose(outer, inner)(p) = outer(inner(p)). */
export function compose(outer: Affine, inner: Affine): Affine {
  return {
    a: outer.a * inner.a + outer.c * inner.b,
    b: outer.b * inner.a + outer.d * inner.b,
    c: outer.a * inner.c + outer.c * inner.d,
    d: outer.b * inner.c + outer.d * inner.d,
    e: outer.a * inner.e + outer.c * inner.f + outer.e,
    f: outer.b * inner.e + outer.d * inner.f + outer.f,
  };
}

export function determinant(m: Affine): number {
  return m.a * m.d - m.b * m.c;
}

/** The inverse map; undefined for a map that flattens the plane (its points were on one line). */
export function invert(m: Affine): Affine | undefined {
  const det = determinant(m);
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return undefined;
  return {
    a: m.d / det,
    b: -m.b / det,
    c: -m.c / det,
    d: m.a / det,
    e: (m.c * m.f - m.d * m.e) / det,
    f: (m.b * m.e - m.a * m.f) / det,
  };
}

export const scaling = (factor: number): Affine => ({ a: factor, b: 0, c: 0, d: factor, e: 0, f: 0 });

export const translation = ([x, y]: ImagePoint): Affine => ({ a: 1, b: 0, c: 0, d: 1, e: x, f: y });

/** Turns by `degrees` (clockwise on screen) about `pivot`. */
export function rotationAbout(degrees: number, pivot: ImagePoint = [0, 0]): Affine {
  const cos = Math.cos(degrees * RADIANS);
  const sin = Math.sin(degrees * RADIANS);
  const [x, y] = pivot;
  return { a: cos, b: sin, c: -sin, d: cos, e: x - cos * x + sin * y, f: y - sin * x - cos * y };
}

/**
 * The nearest turn-and-zoom of a map's linear part: its scale (square root of the area factor) and its angle in
 * degrees. Exact for a similarity; for an affine map it is what a viewer, which can turn and zoom but not shear,
 * can show of it.
 */
export function similarityPart(m: Affine): { scale: number; degrees: number } {
  return { scale: Math.sqrt(Math.abs(determinant(m))), degrees: Math.atan2(m.b - m.c, m.a + m.d) / RADIANS };
}

/** Angle in (-180, 180]. */
export function normaliseDegrees(degrees: number): number {
  const turned = (((degrees % 360) + 540) % 360) - 180;
  return turned === -180 ? 180 : turned;
}

type Pairs = readonly (readonly [ImagePoint, ImagePoint])[];

/**
 * The similarity (shift, turn, uniform zoom) taking `from[i]` to `to[i]`, exact for two pairs and the least-squares
 * fit for more. Undefined when the `from` points coincide.
 */
export function similarityFromPoints(pairs: Pairs): Affine | undefined {
  const n = pairs.length;
  if (n < 2) return undefined;
  const mean = (pick: (pair: readonly [ImagePoint, ImagePoint]) => number) =>
    pairs.reduce((sum, pair) => sum + pick(pair), 0) / n;
  const px = mean(([p]) => p[0]);
  const py = mean(([p]) => p[1]);
  const qx = mean(([, q]) => q[0]);
  const qy = mean(([, q]) => q[1]);
  // As complex numbers: q - q̄ = α (p - p̄), α = Σ conj(p - p̄)(q - q̄) / Σ |p - p̄|².
  let re = 0;
  let im = 0;
  let norm = 0;
  for (const [[x, y], [u, v]] of pairs) {
    const dx = x - px;
    const dy = y - py;
    const du = u - qx;
    const dv = v - qy;
    re += dx * du + dy * dv;
    im += dx * dv - dy * du;
    norm += dx * dx + dy * dy;
  }
  if (norm < 1e-12) return undefined;
  const a = re / norm;
  const b = im / norm;
  return { a, b, c: -b, d: a, e: qx - a * px + b * py, f: qy - b * px - a * py };
}

/** The affine map taking three `from` points to three `to` points; undefined when the `from` points are on a line. */
export function affineFromPoints(pairs: Pairs): Affine | undefined {
  if (pairs.length !== 3) return undefined;
  const [[p0, q0], [p1, q1], [p2, q2]] = pairs as [Pairs[number], Pairs[number], Pairs[number]];
  // The map taking the unit frame (0,0), (1,0), (0,1) to each triangle; from-triangle's inverse, then the to-triangle.
  const frame = (o: ImagePoint, x: ImagePoint, y: ImagePoint): Affine => ({
    a: x[0] - o[0],
    b: x[1] - o[1],
    c: y[0] - o[0],
    d: y[1] - o[1],
    e: o[0],
    f: o[1],
  });
  const fromFrame = invert(frame(p0, p1, p2));
  return fromFrame && compose(frame(q0, q1, q2), fromFrame);
}

/** Similarity for two pairs, affine for three: the transform of a point alignment. */
export function alignmentTransform(pairs: Pairs): Affine | undefined {
  return pairs.length === 3 ? affineFromPoints(pairs) : pairs.length === 2 ? similarityFromPoints(pairs) : undefined;
}

/**
 * How far, at each chosen point, the view that links the panes misses the matching point, in the units of `to`
 * (µm once the caller has scaled them). The panes turn and zoom but cannot shear, so this measures the transform's
 * nearest turn-and-zoom: 0 for two points, and for three what the slides' stretch or shear leaves over.
 */
export function residuals(pairs: Pairs): number[] {
  const fit = similarityFromPoints(pairs);
  if (!fit) return pairs.map(() => Number.NaN);
  return pairs.map(([p, q]) => {
    const [x, y] = apply(fit, p);
    return Math.hypot(x - q[0], y - q[1]);
  });
}
