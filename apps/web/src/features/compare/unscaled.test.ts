import { describe, expect, it } from 'vitest';
import { followerViews, paneMaps, type PaneLink } from './linking.ts';
import { linkScales, middleOffsets } from './unscaled.ts';

describe('slides without a resolution in a comparison', () => {
  it('keeps real resolutions, and pixels when no slide has one', () => {
    expect(
      linkScales([
        { micronsPerPixel: 0.5, size: [100, 50] },
        { micronsPerPixel: 0.25, size: [10, 10] },
      ]),
    ).toEqual({ micronsPerPixel: [0.5, 0.25] });
    expect(
      linkScales([
        { micronsPerPixel: undefined, size: [100, 50] },
        { micronsPerPixel: undefined, size: [10, 10] },
      ]),
    ).toEqual({ micronsPerPixel: [1, 1] });
  });

  it('sizes a slide without one to the first scaled slide by the longer side, and says so', () => {
    // CMU-1-Small-Region (2220 × 2967 at 0.499 µm) beside the OME test image (439 × 167, no resolution).
    const scales = linkScales([
      { micronsPerPixel: 0.499, size: [2220, 2967] },
      { micronsPerPixel: undefined, size: [439, 167] },
    ]);
    expect(scales.sizedTo).toBe(0);
    expect(scales.micronsPerPixel[1]! * 439).toBeCloseTo(0.499 * 2967, 6);
  });

  it('puts every slide’s middle on the leader’s: a follower opens on its own slide, not on empty glass', () => {
    const { micronsPerPixel } = linkScales([
      { micronsPerPixel: 0.499, size: [2220, 2967] },
      { micronsPerPixel: undefined, size: [439, 167] },
    ]);
    const panes: PaneLink[] = [
      { micronsPerPixel: micronsPerPixel[0]!, size: [2220, 2967], rotation: 0, offset: [0, 0] },
      { micronsPerPixel: micronsPerPixel[1]!, size: [439, 167], rotation: 0, offset: [0, 0] },
    ];
    const offsets = middleOffsets(panes, 0);
    expect(offsets[0]).toEqual([0, 0]);
    const maps = paneMaps(panes.map((pane, index) => ({ ...pane, offset: offsets[index]! })));
    const [, follower] = followerViews(maps, 0, { centre: [1110, 1483.5], zoom: 0.1, rotation: 0 }, [true, true]);
    expect(follower!.centre[0]).toBeCloseTo(219.5, 6);
    expect(follower!.centre[1]).toBeCloseTo(83.5, 6);
    // The same share of the screen: 2967 px at 0.1 fill as much as 439 px at the follower's zoom.
    expect(follower!.zoom * 439).toBeCloseTo(0.1 * 2967, 6);
  });
});
