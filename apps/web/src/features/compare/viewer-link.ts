import type OpenSeadragon from 'openseadragon';
import { roughWhileMoving } from './motion-quality.ts';
import { followerViews, paneRotation, paneToWorld, worldToPane, type PaneView } from './linking.ts';
import { normaliseDegrees, type Affine } from './transforms.ts';

/** What one open pane shows now (animated values), in its image's pixels; undefined before its image opens. */
export function readView(viewer: OpenSeadragon.Viewer): PaneView | undefined {
  const item = viewer.world.getItemAt(0);
  if (!item) return undefined;
  const { viewport } = viewer;
  const centre = item.viewportToImageCoordinates(viewport.getCenter(true));
  return {
    centre: [centre.x, centre.y],
    zoom: item.viewportToImageZoom(viewport.getZoom(true)),
    rotation: viewport.getRotation(true),
  };
}

function writeView(viewer: OpenSeadragon.Viewer, view: PaneView): void {
  const item = viewer.world.getItemAt(0);
  if (!item) return;
  const { viewport } = viewer;
  viewport.setRotation(view.rotation, true);
  viewport.zoomTo(item.imageToViewportZoom(view.zoom), undefined, true);
  viewport.panTo(item.imageToViewportCoordinates(view.centre[0], view.centre[1]), true);
}

export interface ViewerLinkEvents {
  /** The user took another pane in hand: it leads from now on. */
  onLeader: (index: number) => void;
  /** The leader came to rest (for the address bar). */
  onSettled: (index: number, view: PaneView) => void;
  /** A pane was turned by something other than the link (its own rotate button): by how many degrees. */
  onTurned: (index: number, degrees: number) => void;
}

const SETTLE_MS = 250;
/** A long comparison keeps only the recent follow measures (the browser keeps them until cleared). */
const MEASURES_KEPT = 2000;

/**
 * Time from the leader passing a move on to a follower drawing it, as a User Timing measure (`compare-follow`)
 * that the benchmark turns into frames of lag and a browser's profiler shows beside the frames.
 */
export const FOLLOW_MEASURE = 'compare-follow';

/**
 * Keeps linked OpenSeadragon viewers together. Only the leader's moves are passed on, and followers are set from
 * the leader's view through fixed maps, so a follower's own change events never travel back (no feedback loop) and
 * nothing accumulates over many moves (no drift). Followers are set in the leader's own update, so they move in the
 * same animation frame.
 */
export class ViewerLink {
  private viewers: (OpenSeadragon.Viewer | undefined)[] = [];
  private detach: ((() => void) | undefined)[] = [];
  private maps: Affine[] = [];
  private linked: boolean[] = [];
  private suspended = false;
  /** Set while the link itself moves a pane, so that move is not taken for the user's. */
  private writing = false;
  private settleTimer: ReturnType<typeof setTimeout> | undefined;
  /** When each follower was last set and has not drawn since (performance.now()). */
  private setAt: (number | undefined)[] = [];
  private measured = 0;

  /**
   * @param leader the pane leading at first
   * @param initialView where the leader opens (from the address bar); undefined: every slide opens fitted
   */
  constructor(
    private readonly events: ViewerLinkEvents,
    private leader = 0,
    private initialView?: Pick<PaneView, 'centre' | 'zoom'>,
  ) {}

  get leaderIndex(): number {
    return this.leader;
  }

  viewer(index: number): OpenSeadragon.Viewer | undefined {
    return this.viewers[index];
  }

  /** A pane's viewer became ready (or went away with `undefined`). */
  attach(index: number, viewer: OpenSeadragon.Viewer | undefined): void {
    if (this.viewers[index] === viewer) return;
    this.detach[index]?.();
    this.detach[index] = undefined;
    this.viewers[index] = viewer;
    if (!viewer) return;
    const onChange = () => {
      if (this.writing || this.suspended || index !== this.leader) return;
      this.propagate();
      clearTimeout(this.settleTimer);
      this.settleTimer = setTimeout(() => {
        const view = readView(viewer);
        if (view && index === this.leader) this.events.onSettled(index, view);
      }, SETTLE_MS);
    };
    const onRotate = (event: { degrees: number }) => {
      const map = this.maps[index];
      if (this.writing || this.suspended || !map) return;
      const turn = normaliseDegrees(event.degrees - paneRotation(map));
      if (Math.abs(turn) > 1e-9) this.events.onTurned(index, turn);
    };
    const onDrawn = () => {
      const start = this.setAt[index];
      if (start === undefined) return;
      this.setAt[index] = undefined;
      performance.measure(FOLLOW_MEASURE, { start });
      if (++this.measured % MEASURES_KEPT === 0) performance.clearMeasures(FOLLOW_MEASURE);
    };
    viewer.addHandler('viewport-change', onChange);
    viewer.addHandler('rotate', onRotate);
    viewer.addHandler('update-viewport', onDrawn);
    const smoothAgain = roughWhileMoving(viewer);
    this.detach[index] = () => {
      smoothAgain();
      viewer.removeHandler('viewport-change', onChange);
      viewer.removeHandler('rotate', onRotate);
      viewer.removeHandler('update-viewport', onDrawn);
    };
    this.applyInitialView();
    this.resync(index);
  }

  /** New maps or locks: followers are set again from the leader's current view. */
  configure(maps: Affine[], linked: boolean[]): void {
    const leaderViewer = this.viewers[this.leader];
    const oldMap = this.maps[this.leader];
    const view = leaderViewer && readView(leaderViewer);
    // The leader keeps its physical place under its new map (a turn of the leader itself moves it, not the others).
    const world = view && oldMap ? paneToWorld(oldMap, view) : undefined;
    this.maps = maps;
    this.linked = linked;
    this.applyInitialView();
    const newMap = maps[this.leader];
    if (world && newMap && linked[this.leader]) {
      const leaderView = worldToPane(newMap, world);
      if (leaderView) this.write(this.leader, leaderView);
    }
    this.propagate();
  }

  setLeader(index: number): void {
    if (index === this.leader || !this.linked[index]) return;
    this.leader = index;
    this.events.onLeader(index);
  }

  /** Alignment by points: every pane moves on its own until resumed. */
  suspend(suspended: boolean): void {
    this.suspended = suspended;
    if (!suspended) this.propagate();
  }

  dispose(): void {
    clearTimeout(this.settleTimer);
    for (const detach of this.detach) detach?.();
    this.detach = [];
    this.viewers = [];
  }

  /** The view the address bar asked for, once the leader is open and placed. */
  private applyInitialView(): void {
    const map = this.maps[this.leader];
    if (!this.initialView || !map || !this.viewers[this.leader]) return;
    this.write(this.leader, { ...this.initialView, rotation: paneRotation(map) });
    this.initialView = undefined;
  }

  /** Sets one follower (a pane that just opened) from the leader. */
  private resync(index: number): void {
    if (index === this.leader) {
      this.propagate();
      return;
    }
    const views = this.followers();
    const view = views?.[index];
    if (view) this.write(index, view);
  }

  private followers(): (PaneView | undefined)[] | undefined {
    const leaderViewer = this.viewers[this.leader];
    if (this.suspended || !leaderViewer || !this.linked[this.leader]) return undefined;
    const view = readView(leaderViewer);
    return view && followerViews(this.maps, this.leader, view, this.linked);
  }

  private propagate(): void {
    const views = this.followers();
    const now = performance.now();
    views?.forEach((view, index) => {
      if (!view) return;
      if (index !== this.leader) this.setAt[index] ??= now;
      this.write(index, view);
    });
  }

  private write(index: number, view: PaneView): void {
    const viewer = this.viewers[index];
    if (!viewer) return;
    this.writing = true;
    try {
      writeView(viewer, view);
    } finally {
      this.writing = false;
    }
  }
}
