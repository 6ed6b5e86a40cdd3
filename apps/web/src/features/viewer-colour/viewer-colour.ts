import { DEFAULT_COLOR_SETTINGS, type ColorSettings } from '@pathology/contract';
import type OpenSeadragon from 'openseadragon';
import { cssFilterValue, isNeutral, svgFilterMarkup, transformPixels } from './colour-filter.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';

interface Applied {
  settings: ColorSettings;
  filterId: string;
  /** Holds the <filter>; lives in <body> until the viewer is destroyed. */
  svg: SVGSVGElement;
}

const applied = new WeakMap<OpenSeadragon.Viewer, Applied>();
let nextFilter = 0;

/** The elements the tiles are drawn on: the main drawer's and the navigator's (not overlays or drawings). */
function drawnElements(viewer: OpenSeadragon.Viewer): HTMLElement[] {
  // The navigator is optional at runtime whatever the typings say.
  const navigator = viewer.navigator as OpenSeadragon.Navigator | undefined;
  return [viewer.drawer?.canvas, navigator?.drawer?.canvas].filter((element): element is HTMLCanvasElement =>
    Boolean(element),
  );
}

function setUp(viewer: OpenSeadragon.Viewer): Applied {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('width', '0');
  svg.setAttribute('height', '0');
  svg.style.position = 'absolute';
  svg.style.pointerEvents = 'none';
  document.body.appendChild(svg);
  const state: Applied = { settings: { ...DEFAULT_COLOR_SETTINGS }, filterId: `viewer-colour-${++nextFilter}`, svg };
  applied.set(viewer, state);
  viewer.addOnceHandler('destroy', () => {
    svg.remove();
    applied.delete(viewer);
  });
  // A WebGL drawer that cannot recover is replaced by a canvas one: filter the new element too.
  viewer.addHandler('webgl-context-recovery-failed', () => {
    const current = applied.get(viewer);
    if (current != null) paint(viewer, current);
  });
  return state;
}

function paint(viewer: OpenSeadragon.Viewer, state: Applied): void {
  state.svg.innerHTML = svgFilterMarkup(state.settings, state.filterId);
  const value = cssFilterValue(state.settings, state.filterId);
  for (const element of drawnElements(viewer)) element.style.filter = value === 'none' ? '' : value;
}

/**
 * Shows the slide with the colour adjustment, live: a CSS filter (an SVG filter by id) on the
 * canvas OpenSeadragon draws on, so no tile is requested again and overlays keep their colours.
 * The adjustment stays until it is changed or the viewer is destroyed.
 */
export function applyColourToViewer(viewer: OpenSeadragon.Viewer, settings: ColorSettings): void {
  const state = applied.get(viewer) ?? setUp(viewer);
  state.settings = { ...settings };
  paint(viewer, state);
}

/** The adjustment currently shown on the viewer (neutral when none was applied). */
export function getViewerColour(viewer: OpenSeadragon.Viewer): ColorSettings {
  return { ...(applied.get(viewer)?.settings ?? DEFAULT_COLOR_SETTINGS) };
}

/**
 * A copy of `source` with the adjustment baked into its pixels. A CSS filter only changes what
 * the screen shows, so a snapshot drawn from the viewer's canvas passes through here to look the
 * same as the screen: `applyColourToCanvas(canvas, getViewerColour(viewer))`. Same maths as the
 * display filter (colour-filter.ts). The source must not be tainted (our tiles are same-origin).
 */
export function applyColourToCanvas(source: HTMLCanvasElement, settings: ColorSettings): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = source.width;
  canvas.height = source.height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (context == null || canvas.width === 0 || canvas.height === 0) return canvas;
  context.drawImage(source, 0, 0);
  if (isNeutral(settings)) return canvas;
  const image = context.getImageData(0, 0, canvas.width, canvas.height);
  transformPixels(image.data, settings);
  context.putImageData(image, 0, 0);
  return canvas;
}
