import type { ImagePoint } from '@pathology/contract';
import { paneMaps, type PaneLink } from './linking.ts';
import { apply } from './transforms.ts';

interface SlideScale {
  /** µm per image pixel; undefined for a slide without a resolution. */
  micronsPerPixel: number | undefined;
  size: readonly [number, number];
}

export interface LinkScales {
  /** Per slide, the µm per pixel the link uses. */
  micronsPerPixel: number[];
  /**
   * Some slides have a resolution and some do not: there is no common physical frame, so absolute linking would put
   * the slides without one on made-up coordinates (empty glass, far off in zoom). Index of the slide they are sized to.
   */
  sizedTo?: number;
}

const longerSide = (size: readonly [number, number]) => Math.max(size[0], size[1], 1);

/**
 * The scales the link works in. All slides with a resolution: theirs. None: pixels (1 µm each). A mix: each slide
 * without one is sized so its longer side matches the first scaled slide's, so both open whole at a like size.
 */
export function linkScales(slides: readonly SlideScale[]): LinkScales {
  const reference = slides.findIndex((slide) => slide.micronsPerPixel !== undefined);
  const known = slides[reference];
  if (!known?.micronsPerPixel || slides.every((slide) => slide.micronsPerPixel !== undefined)) {
    return { micronsPerPixel: slides.map((slide) => slide.micronsPerPixel ?? 1) };
  }
  const span = known.micronsPerPixel * longerSide(known.size);
  return {
    micronsPerPixel: slides.map((slide) => slide.micronsPerPixel ?? span / longerSide(slide.size)),
    sizedTo: reference,
  };
}

/** Relative linking's shifts that put every slide's middle on the leader's middle. */
export function middleOffsets(panes: readonly PaneLink[], leader: number): ImagePoint[] {
  const maps = paneMaps(panes.map((pane) => ({ ...pane, offset: [0, 0] })));
  const middle = (index: number): ImagePoint => {
    const size = panes[index]?.size ?? [0, 0];
    return apply(maps[index]!, [size[0] / 2, size[1] / 2]);
  };
  const target = middle(leader);
  return panes.map((_, index) => {
    const [x, y] = middle(index);
    return [target[0] - x, target[1] - y];
  });
}
