import { COLOR_SETTING_KEYS, DEFAULT_COLOR_SETTINGS, type ColorSettings } from '@pathology/contract';

/**
 * The colour adjustment as a pure pipeline (ranges in the contract's COLOR_SETTING_RANGES):
 *
 * 1. a 3×3 colour matrix: saturation (factor 1 + s/100), then tint as a hue rotation of tint × 1.8°,
 *    both with the sRGB luminance weights of the Filter Effects spec (feColorMatrix saturate/hueRotate);
 * 2. per channel: brightness (× 1 + b/100) and contrast (× 1 + c/100 around 0.5) as one linear step;
 * 3. gamma: v^(1/gamma);
 * 4. invert: 1 − v.
 *
 * Every step works on sRGB values in 0..1 and clamps its result, as SVG filter primitives do. The
 * display uses the same steps as an SVG filter (see {@link svgFilterMarkup}); snapshots run them on
 * the pixels ({@link transformPixels}), so both give the same picture.
 */

/** Row-major 3×3 matrix acting on [r, g, b]. */
export type ColourMatrix = readonly [number, number, number, number, number, number, number, number, number];

const IDENTITY: ColourMatrix = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const LUMA = [0.213, 0.715, 0.072] as const;

/** Same values for every setting. */
export function sameColour(a: ColorSettings, b: ColorSettings): boolean {
  return COLOR_SETTING_KEYS.every((key) => a[key] === b[key]);
}

/** The image as scanned: nothing to do. */
export function isNeutral(settings: ColorSettings): boolean {
  return sameColour(settings, DEFAULT_COLOR_SETTINGS);
}

/** Filter Effects spec, feColorMatrix type="saturate". */
export function saturationMatrix(factor: number): ColourMatrix {
  const [r, g, b] = LUMA;
  return [
    r + (1 - r) * factor,
    g - g * factor,
    b - b * factor,
    r - r * factor,
    g + (1 - g) * factor,
    b - b * factor,
    r - r * factor,
    g - g * factor,
    b + (1 - b) * factor,
  ];
}

/** Filter Effects spec, feColorMatrix type="hueRotate". */
export function hueRotationMatrix(degrees: number): ColourMatrix {
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  return [
    0.213 + cos * 0.787 - sin * 0.213,
    0.715 - cos * 0.715 - sin * 0.715,
    0.072 - cos * 0.072 + sin * 0.928,
    0.213 - cos * 0.213 + sin * 0.143,
    0.715 + cos * 0.285 + sin * 0.14,
    0.072 - cos * 0.072 - sin * 0.283,
    0.213 - cos * 0.213 - sin * 0.787,
    0.715 - cos * 0.715 + sin * 0.715,
    0.072 + cos * 0.928 + sin * 0.072,
  ];
}

/** `second × first`: the matrix that applies `first`, then `second`. */
export function multiply(second: ColourMatrix, first: ColourMatrix): ColourMatrix {
  const out: number[] = [];
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 3; col++) {
      let sum = 0;
      for (let k = 0; k < 3; k++) sum += second[row * 3 + k]! * first[k * 3 + col]!;
      out.push(sum);
    }
  }
  return out as unknown as ColourMatrix;
}

export const tintDegrees = (tint: number) => tint * 1.8;

/** Step 1: saturation then hue rotation; null when it changes nothing. */
export function colourMatrix(settings: ColorSettings): ColourMatrix | null {
  if (settings.saturation === 0 && settings.tint === 0) return null;
  const saturation = settings.saturation === 0 ? IDENTITY : saturationMatrix(1 + settings.saturation / 100);
  return settings.tint === 0 ? saturation : multiply(hueRotationMatrix(tintDegrees(settings.tint)), saturation);
}

/** Step 2: v' = slope·v + intercept (brightness, then contrast around mid-grey); null when neutral. */
export function linearTransfer(settings: ColorSettings): { slope: number; intercept: number } | null {
  if (settings.brightness === 0 && settings.contrast === 0) return null;
  const brightness = 1 + settings.brightness / 100;
  const contrast = 1 + settings.contrast / 100;
  return { slope: brightness * contrast, intercept: 0.5 - 0.5 * contrast };
}

/** Step 3: the exponent applied to each channel; null when gamma is 1. */
export function gammaExponent(settings: ColorSettings): number | null {
  return settings.gamma === 1 ? null : 1 / settings.gamma;
}

const clamp01 = (value: number) => (value < 0 ? 0 : value > 1 ? 1 : value);

/** Steps 2–4 for one channel value in 0..1. */
export function transferChannel(value: number, settings: ColorSettings): number {
  let v = value;
  const linear = linearTransfer(settings);
  if (linear != null) v = clamp01(linear.slope * v + linear.intercept);
  const exponent = gammaExponent(settings);
  if (exponent != null) v = clamp01(Math.pow(v, exponent));
  if (settings.invert === 1) v = 1 - v;
  return v;
}

/** Steps 2–4 as a 256-entry table over 8-bit values. */
export function channelTable(settings: ColorSettings): Uint8ClampedArray {
  const table = new Uint8ClampedArray(256);
  for (let i = 0; i < 256; i++) table[i] = Math.round(transferChannel(i / 255, settings) * 255);
  return table;
}

/** Runs the whole pipeline over RGBA pixels (ImageData.data) in place; alpha is kept. */
export function transformPixels(data: Uint8ClampedArray, settings: ColorSettings): void {
  if (isNeutral(settings)) return;
  const matrix = colourMatrix(settings);
  const table = channelTable(settings);
  for (let i = 0; i < data.length; i += 4) {
    let r = data[i]!;
    let g = data[i + 1]!;
    let b = data[i + 2]!;
    if (matrix != null) {
      const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = matrix;
      // Uint8ClampedArray clamps and rounds on write, as the SVG primitive clamps its result.
      const nr = m0 * r + m1 * g + m2 * b;
      const ng = m3 * r + m4 * g + m5 * b;
      const nb = m6 * r + m7 * g + m8 * b;
      r = nr < 0 ? 0 : nr > 255 ? 255 : Math.round(nr);
      g = ng < 0 ? 0 : ng > 255 ? 255 : Math.round(ng);
      b = nb < 0 ? 0 : nb > 255 ? 255 : Math.round(nb);
    }
    data[i] = table[r]!;
    data[i + 1] = table[g]!;
    data[i + 2] = table[b]!;
  }
}

const num = (value: number) => String(Number(value.toFixed(6)));

/** The SVG filter primitives of the pipeline, as markup for a <filter> element. */
export function svgFilterPrimitives(settings: ColorSettings): string[] {
  const primitives: string[] = [];
  const matrix = colourMatrix(settings);
  if (matrix != null) {
    const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = matrix.map(num);
    const values = [m0, m1, m2, 0, 0, m3, m4, m5, 0, 0, m6, m7, m8, 0, 0, 0, 0, 0, 1, 0].join(' ');
    primitives.push(`<feColorMatrix type="matrix" values="${values}"/>`);
  }
  const transfer = (attributes: string) =>
    `<feComponentTransfer>${['R', 'G', 'B'].map((c) => `<feFunc${c} ${attributes}/>`).join('')}</feComponentTransfer>`;
  const linear = linearTransfer(settings);
  if (linear != null) {
    primitives.push(transfer(`type="linear" slope="${num(linear.slope)}" intercept="${num(linear.intercept)}"`));
  }
  const exponent = gammaExponent(settings);
  if (exponent != null) primitives.push(transfer(`type="gamma" amplitude="1" exponent="${num(exponent)}" offset="0"`));
  if (settings.invert === 1) primitives.push(transfer('type="table" tableValues="1 0"'));
  return primitives;
}

/**
 * A complete <filter> element. sRGB interpolation matters: SVG filters default to linearRGB,
 * which would make every step differ from the CSS-style maths above.
 */
export function svgFilterMarkup(settings: ColorSettings, id: string): string {
  return (
    `<filter id="${id}" x="0" y="0" width="100%" height="100%" color-interpolation-filters="sRGB">` +
    `${svgFilterPrimitives(settings).join('')}</filter>`
  );
}

/** The CSS `filter` value for the drawn canvas: none when neutral, else the SVG filter by id. */
export function cssFilterValue(settings: ColorSettings, id: string): string {
  return isNeutral(settings) ? 'none' : `url(#${id})`;
}
