import type { ImagePoint } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import {
  followerViews,
  paneMaps,
  paneRotation,
  paneToWorld,
  relativeOffsets,
  turnPane,
  worldToPane,
  type PaneLink,
  type PaneView,
} from './linking.ts';
import { apply, compose, rotationAbout, scaling, translation } from './transforms.ts';

const pane = (micronsPerPixel: number, extra: Partial<PaneLink> = {}): PaneLink => ({
  micronsPerPixel,
  size: [40_000, 30_000],
  rotation: 0,
  offset: [0, 0],
  ...extra,
});

const closeView = (actual: PaneView | undefined, expected: PaneView, digits = 6) => {
  expect(actual).toBeDefined();
  expect(actual!.centre[0]).toBeCloseTo(expected.centre[0], digits);
  expect(actual!.centre[1]).toBeCloseTo(expected.centre[1], digits);
  expect(actual!.zoom / expected.zoom).toBeCloseTo(1, 9);
  expect(actual!.rotation).toBeCloseTo(expected.rotation, 6);
};

describe('linking in physical units', () => {
  it('absolute: the same µm point and magnification on slides of different resolutions', () => {
    const maps = paneMaps([pane(0.25), pane(0.5)]);
    const [, follower] = followerViews(maps, 0, { centre: [8000, 4000], zoom: 0.5, rotation: 0 }, [true, true]);
    // 8000 px × 0.25 µm = 2000 µm = 4000 px × 0.5 µm; 0.5 screen px per 0.25 µm = 1 screen px per 0.5 µm.
    closeView(follower, { centre: [4000, 2000], zoom: 1, rotation: 0 });
  });

  it('leaves unlinked panes and the leader alone', () => {
    const maps = paneMaps([pane(0.25), pane(0.25), pane(0.25)]);
    const views = followerViews(maps, 1, { centre: [1, 2], zoom: 1, rotation: 0 }, [true, true, false]);
    expect(views[1]).toBeUndefined();
    expect(views[2]).toBeUndefined();
    expect(views[0]).toBeDefined();
  });

  it('relative: keeps the shift the panes had when linked', () => {
    const panes = [pane(0.25), pane(0.5)];
    const views: PaneView[] = [
      { centre: [8000, 4000], zoom: 0.5, rotation: 0 },
      { centre: [5000, 1000], zoom: 1, rotation: 0 },
    ];
    const offsets = relativeOffsets(panes, views, 0);
    const linked = panes.map((p, index) => ({ ...p, offset: offsets[index]! }));
    const maps = paneMaps(linked);
    closeView(followerViews(maps, 0, views[0]!, [true, true])[1], views[1]!);
    // The leader pans 400 px (100 µm) right: the follower pans 200 of its pixels (100 µm) right from where it was.
    const moved = followerViews(maps, 0, { centre: [8400, 4000], zoom: 0.5, rotation: 0 }, [true, true])[1];
    closeView(moved, { centre: [5200, 1000], zoom: 1, rotation: 0 });
  });

  it('follows a point alignment: the leader centre lands on the aligned point of the follower', () => {
    const alignment = compose(translation([300, -50]), compose(rotationAbout(-12), scaling(1.02)));
    const panes = [pane(0.25), pane(0.25, { alignment })];
    const maps = paneMaps(panes);
    const onFollower: ImagePoint = [12_000, 9_000];
    const onLeader = apply(alignment, onFollower);
    const [, follower] = followerViews(maps, 0, { centre: onLeader, zoom: 0.3, rotation: 0 }, [true, true]);
    expect(follower!.centre[0]).toBeCloseTo(onFollower[0], 6);
    expect(follower!.centre[1]).toBeCloseTo(onFollower[1], 6);
    // The follower is turned by the alignment's own turn, so its tissue lies as the leader's does.
    expect(follower!.rotation).toBeCloseTo(-12, 9);
    expect(follower!.zoom).toBeCloseTo(0.3 * 1.02, 9);
  });
});

describe('turning a pane', () => {
  const view: PaneView = { centre: [10_000, 6_000], zoom: 0.4, rotation: 0 };

  it('keeps its turn in the link: the follower is shown turned and pans along its turned axes', () => {
    const panes = turnPane([pane(0.5), pane(0.5)], 1, 90, view, 'relative');
    const maps = paneMaps(panes);
    expect(paneRotation(maps[1]!)).toBeCloseTo(90, 9);
    const before = followerViews(maps, 0, view, [true, true])[1]!;
    const after = followerViews(maps, 0, { ...view, centre: [10_100, 6_000] }, [true, true])[1]!;
    // The leader moves right in its image; the turned follower's image point moves along its own y axis.
    expect(after.centre[0] - before.centre[0]).toBeCloseTo(0, 6);
    expect(Math.abs(after.centre[1] - before.centre[1])).toBeCloseTo(100, 6);
  });

  it('composes turns: 30° then 60° is 90°, four 90° steps come back home', () => {
    let panes = [pane(0.5), pane(0.5)];
    panes = turnPane(panes, 1, 30, view, 'relative');
    panes = turnPane(panes, 1, 60, view, 'relative');
    const direct = turnPane([pane(0.5), pane(0.5)], 1, 90, view, 'relative');
    closeView(worldToPane(paneMaps(panes)[1]!, paneToWorld(paneMaps(panes)[0]!, view)), {
      ...worldToPane(paneMaps(direct)[1]!, paneToWorld(paneMaps(direct)[0]!, view))!,
    });
    for (let step = 0; step < 4; step += 1) panes = turnPane(panes, 0, 90, view, 'relative');
    expect(paneRotation(paneMaps(panes)[0]!)).toBeCloseTo(0, 9);
  });

  it('relative: keeps the point at the turned pane centre; absolute: turns about the slide middle', () => {
    const panes = [pane(0.5), pane(0.5)];
    const relative = turnPane(panes, 1, 45, view, 'relative');
    closeView(followerViews(paneMaps(relative), 0, view, [true, true])[1], { ...view, rotation: 45 });
    const absolute = turnPane(panes, 1, 180, view, 'absolute');
    expect(absolute[1]!.offset).toEqual([0, 0]);
    // Slide middle is (20 000, 15 000): 180° about it takes (10 000, 6 000) to (30 000, 24 000).
    closeView(followerViews(paneMaps(absolute), 0, view, [true, true])[1], {
      centre: [30_000, 24_000],
      zoom: 0.4,
      rotation: 180,
    });
  });
});

describe('drift', () => {
  /** A tiny deterministic generator, so a failure can be replayed. */
  function random(seed: number) {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
  }

  it('stays on the same physical point after 1,000 linked moves led by changing panes', () => {
    const next = random(31);
    const alignment = compose(translation([250, 90]), compose(rotationAbout(7), scaling(0.98)));
    let panes = [pane(0.25), pane(0.5, { rotation: 90 }), pane(0.25, { alignment }), pane(1)];
    const linked = [true, true, true, true];
    let views: PaneView[] = panes.map(() => ({ centre: [20_000, 15_000], zoom: 0.1, rotation: 0 }));
    panes = panes.map((p, index) => ({ ...p, offset: relativeOffsets(panes, views, 0)[index]! }));
    const maps = paneMaps(panes);
    views = [
      views[0]!,
      ...followerViews(maps, 0, views[0]!, linked)
        .slice(1)
        .map((view) => view!),
    ];

    const initial = views;

    for (let move = 0; move < 1000; move += 1) {
      const leader = Math.floor(next() * panes.length);
      const current = views[leader]!;
      // A drag of up to 200 screen pixels each way and a zoom step, as the user makes them in the leading pane.
      const moved: PaneView = {
        ...current,
        centre: [
          current.centre[0] + (next() * 400 - 200) / current.zoom,
          current.centre[1] + (next() * 400 - 200) / current.zoom,
        ],
        zoom: current.zoom * (0.8 + next() * 0.45),
      };
      views = followerViews(maps, leader, moved, linked).map(
        (view, index) => view ?? (index === leader ? moved : views[index]!),
      );
    }
    const worlds = views.map((view, index) => paneToWorld(maps[index]!, view));
    for (const world of worlds) {
      expect(world.centre[0]).toBeCloseTo(worlds[0]!.centre[0], 6);
      expect(world.centre[1]).toBeCloseTo(worlds[0]!.centre[1], 6);
      expect(world.scale / worlds[0]!.scale).toBeCloseTo(1, 9);
    }
    // The first pane goes back to where it started: every other pane is back exactly where it was, not a
    // fraction of a pixel off, as the followers are a function of the leader's view with no memory of the way.
    const back = followerViews(maps, 0, initial[0]!, linked);
    for (let index = 1; index < panes.length; index += 1) closeView(back[index], initial[index]!);
  });
});
