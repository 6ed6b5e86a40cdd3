import type { ImagePoint } from '@pathology/contract';
import {
  apply,
  compose,
  invert,
  normaliseDegrees,
  rotationAbout,
  scaling,
  similarityPart,
  translation,
  type Affine,
} from './transforms.ts';

/** What one pane shows: the image point at its centre, screen pixels per image pixel, its turn in degrees. */
export interface PaneView {
  centre: ImagePoint;
  zoom: number;
  rotation: number;
}

/**
 * The linked panes' common view, in the shared physical frame: the point at the centre in µm and screen pixels per
 * µm. The frame itself never turns; every turn is a pane's own and lives in that pane's map.
 */
export interface WorldView {
  centre: ImagePoint;
  scale: number;
}

export type LinkMode = 'absolute' | 'relative';

/** How a pane's image is placed in the physical frame. */
export interface PaneLink {
  /** µm per image pixel; 1 for a slide without a resolution (linked in pixels). */
  micronsPerPixel: number;
  /** Image size in pixels: the turn of a pane is about its slide's middle. */
  size: readonly [number, number];
  /** The pane's own turn, degrees clockwise. */
  rotation: number;
  /** The pane's shift in µm: what relative linking keeps; 0 in absolute linking. */
  offset: ImagePoint;
  /** Point alignment with the first pane: this pane's image pixels to the first pane's image pixels. */
  alignment?: Affine;
}

/**
 * Each pane's map from its image pixels into the physical frame. The first pane is scaled by its resolution; a pane
 * aligned with it by points goes through the first pane's map (so it follows the first pane's turn too); any other
 * by its own resolution. Then the pane's own turn (about its slide's middle) and its shift.
 */
export function paneMaps(panes: readonly PaneLink[]): Affine[] {
  const place = (pane: PaneLink, base: Affine) => {
    const pivot = apply(base, [pane.size[0] / 2, pane.size[1] / 2]);
    return compose(translation(pane.offset), compose(rotationAbout(pane.rotation, pivot), base));
  };
  const first = panes[0];
  if (!first) return [];
  const firstMap = place(first, scaling(first.micronsPerPixel));
  return panes.map((pane, index) => {
    if (index === 0) return firstMap;
    return place(pane, pane.alignment ? compose(firstMap, pane.alignment) : scaling(pane.micronsPerPixel));
  });
}

export function paneToWorld(map: Affine, view: PaneView): WorldView {
  return { centre: apply(map, view.centre), scale: view.zoom / similarityPart(map).scale };
}

/** The view a pane with `map` shows of the common view; undefined for a map that cannot be inverted. */
export function worldToPane(map: Affine, world: WorldView): PaneView | undefined {
  const inverse = invert(map);
  if (!inverse) return undefined;
  const { scale, degrees } = similarityPart(map);
  return { centre: apply(inverse, world.centre), zoom: world.scale * scale, rotation: normaliseDegrees(degrees) };
}

/** The turn a pane with `map` is shown at. */
export const paneRotation = (map: Affine) => normaliseDegrees(similarityPart(map).degrees);

/** Where the linked followers go when the leader shows `leaderView`: by pane index, undefined for the others. */
export function followerViews(
  maps: readonly Affine[],
  leader: number,
  leaderView: PaneView,
  linked: readonly boolean[],
): (PaneView | undefined)[] {
  const leaderMap = maps[leader];
  if (!leaderMap) return maps.map(() => undefined);
  const world = paneToWorld(leaderMap, leaderView);
  return maps.map((map, index) => (index !== leader && linked[index] ? worldToPane(map, world) : undefined));
}

/**
 * Relative linking: the shifts that keep what each pane shows now, so the leader's centre stays beside whatever
 * each follower has at its centre. Panes without a view (not open yet) keep their shift.
 */
export function relativeOffsets(
  panes: readonly PaneLink[],
  views: readonly (PaneView | undefined)[],
  leader: number,
): ImagePoint[] {
  const maps = paneMaps(panes);
  const leaderView = views[leader];
  const leaderMap = maps[leader];
  if (!leaderView || !leaderMap) return panes.map((pane) => pane.offset);
  const target = apply(leaderMap, leaderView.centre);
  return panes.map((pane, index) => {
    const view = views[index];
    const map = maps[index];
    if (index === leader || !view || !map) return pane.offset;
    const [x, y] = apply(map, view.centre);
    return [pane.offset[0] + target[0] - x, pane.offset[1] + target[1] - y];
  });
}

/**
 * Turns pane `index` by `degrees`. Relative linking keeps the point at the pane's centre where it is (the shift
 * absorbs the turn); absolute linking keeps the pane on the same physical point as the others, so it turns about its
 * slide's middle.
 */
export function turnPane(
  panes: readonly PaneLink[],
  index: number,
  degrees: number,
  view: PaneView | undefined,
  mode: LinkMode,
): PaneLink[] {
  const turned = panes.map((pane, at) =>
    at === index ? { ...pane, rotation: normaliseDegrees(pane.rotation + degrees) } : pane,
  );
  const before = paneMaps(panes)[index];
  const after = paneMaps(turned)[index];
  const pane = turned[index];
  if (mode === 'absolute' || !view || !before || !after || !pane) return turned;
  const [x0, y0] = apply(before, view.centre);
  const [x1, y1] = apply(after, view.centre);
  turned[index] = { ...pane, offset: [pane.offset[0] + x0 - x1, pane.offset[1] + y0 - y1] };
  return turned;
}
