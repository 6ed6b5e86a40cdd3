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
