import type { Image } from '@pathology/contract';

/** A resolution of exactly 10 dots per centimetre is a placeholder some scanners write: read it as 22620 dpc. */
const PLACEHOLDER_DPC = 10;
const PLACEHOLDER_REPLACEMENT_DPC = 22620;
/** Anything at or below this many dots per centimetre is no microscope scan (part 2 §9). */
const MIN_VALID_DPC = 5000;
const MICRONS_PER_CENTIMETRE = 10_000;

type Resolution = NonNullable<Image['resolution']>;

/** Dots per centimetre of the horizontal resolution, when it is valid (spec part 2 §9); undefined otherwise. */
export function validDotsPerCentimetre(resolution: Resolution | null | undefined): number | undefined {
  if (!resolution) return undefined;
  const dpc = resolution.unit === 'dpi' ? resolution.x / 2.54 : resolution.x;
  if (dpc === PLACEHOLDER_DPC) return PLACEHOLDER_REPLACEMENT_DPC;
  return dpc > MIN_VALID_DPC ? dpc : undefined;
}

/** Micrometres covered by one full-resolution image pixel; undefined when the resolution is not valid (no scale bar). */
export function micronsPerImagePixel(resolution: Resolution | null | undefined): number | undefined {
  const dpc = validDotsPerCentimetre(resolution);
  return dpc === undefined ? undefined : MICRONS_PER_CENTIMETRE / dpc;
}

export interface ScaleBar {
  /** Length on screen, in CSS pixels. */
  lengthPx: number;
  /** The length it stands for, in micrometres (1, 2 or 5 × 10^n). */
  microns: number;
  /** '500 µm', '2 mm', '0.5 µm'. */
  label: string;
}

export const SCALE_BAR_MAX_PX = 200;
const STEPS = [5, 2, 1] as const;

const clean = (value: number) => Number(value.toPrecision(12));

function labelOf(microns: number): string {
  return microns >= 1000 ? `${clean(microns / 1000)} mm` : `${clean(microns)} µm`;
}

/**
 * The longest round length (1, 2 or 5 × 10^n µm) that fits in `maxPx` screen pixels at the current zoom, so the bar
 * is between 40 % and 100 % of `maxPx` long (80–200 px by default). `imageZoom` is screen pixels per image pixel.
 */
export function scaleBar(micronsPerPixel: number, imageZoom: number, maxPx = SCALE_BAR_MAX_PX): ScaleBar | undefined {
  const micronsPerScreenPixel = micronsPerPixel / imageZoom;
  if (!(micronsPerScreenPixel > 0) || !Number.isFinite(micronsPerScreenPixel)) return undefined;
  const maxMicrons = maxPx * micronsPerScreenPixel;
  const power = 10 ** Math.floor(Math.log10(maxMicrons));
  for (let decade = power; ; decade /= 10) {
    for (const step of STEPS) {
      const microns = clean(step * decade);
      if (microns <= maxMicrons * (1 + 1e-9)) {
        return { lengthPx: microns / micronsPerScreenPixel, microns, label: labelOf(microns) };
      }
    }
  }
}
