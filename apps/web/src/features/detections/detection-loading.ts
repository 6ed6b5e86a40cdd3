import type OpenSeadragon from 'openseadragon';

/** OpenSeadragon draws a level once one of its pixels covers at least this many screen pixels (minPixelRatio). */
const MIN_PIXEL_RATIO = 0.5;

export interface TileLevels {
  minLevel: number;
  maxLevel: number;
}

/**
 * The level OpenSeadragon draws the detections at for an image zoom (screen pixels per image pixel): the highest
 * whose pixels still cover half a screen pixel, as it picks it.
 */
export function drawnLevel(imageZoom: number, levels: TileLevels): number {
  const level = Math.floor(levels.maxLevel + Math.log2(imageZoom / MIN_PIXEL_RATIO) + 1e-9);
  return Math.min(levels.maxLevel, Math.max(levels.minLevel, level));
}

/** The parts of a viewer this needs (a test hands in a stand-in). */
export type LoadingViewer = Pick<OpenSeadragon.Viewer, 'addHandler' | 'removeHandler'> & {
  viewport: Pick<OpenSeadragon.Viewport, 'getZoom'>;
};

/**
 * What OpenSeadragon 6 reads of a TiledImage while it picks tiles to load. addTiledImage does not pass immediateRender
 * on (the viewer's own setting is taken), so it is set on the item; the per-frame budget it counts down
 * (`_currentMaxTilesPerFrame`) settles at maxTilesPerFrame and never at 0, so holding sets the budget itself.
 */
export type LoadingItem = Pick<OpenSeadragon.TiledImage, 'viewportToImageZoom'> & {
  immediateRender: boolean;
  maxTilesPerFrame: number;
  _currentMaxTilesPerFrame: number;
  /** Makes the next frame pick tiles again: one that found none to load while held counts itself fully loaded. */
  _needsUpdate: boolean;
};

/**
 * Detection tiles only of the level the view comes to rest on. While a zoom passes through other levels nothing is
 * asked for: each tile of the levels on the way costs the server a query and a drawing, those of the middle levels
 * the most (tens of thousands of objects each), and they queued ahead of the tiles the user waits for. What is
 * already loaded stays drawn, scaled, meanwhile. Returns the undo.
 */
export function loadRestingLevelOnly(viewer: LoadingViewer, item: LoadingItem, levels: TileLevels): () => void {
  item.immediateRender = true;
  let held = false;
  const follow = () => {
    const level = (current: boolean) => drawnLevel(item.viewportToImageZoom(viewer.viewport.getZoom(current)), levels);
    const hold = level(true) !== level(false);
    if (hold === held) return;
    held = hold;
    item._currentMaxTilesPerFrame = hold ? 0 : item.maxTilesPerFrame;
    if (!hold) item._needsUpdate = true;
  };
  // 'zoom' comes as the target changes, before the next frame asks for tiles; the others follow the animation.
  const events = ['zoom', 'viewport-change', 'animation-finish'] as const;
  for (const event of events) viewer.addHandler(event, follow);
  follow();
  return () => {
    for (const event of events) viewer.removeHandler(event, follow);
    item._currentMaxTilesPerFrame = item.maxTilesPerFrame;
    item._needsUpdate = true;
  };
}
