import type OpenSeadragon from 'openseadragon';
import { viewTransform } from '../drawings/osd-view-transform.ts';
import { toImage } from '../drawings/view-transform.ts';
import type { OverlayCell } from './overlay-cells.ts';

export interface OverlayOptions {
  cells: readonly OverlayCell[];
  cellSize: number;
  opacity: number;
  visible: boolean;
  /** The hotspot being looked at, outlined. */
  focused: OverlayCell | null;
}

/**
 * The AI result as a grid of coloured cells on a canvas over the slide, under the drawings, painted
 * again whenever the slide moves: only the cells in view, one fill per colour.
 */
export class PredictionOverlay {
  private readonly canvas: HTMLCanvasElement;
  private readonly context: CanvasRenderingContext2D;
  private options: OverlayOptions = { cells: [], cellSize: 1, opacity: 0.45, visible: false, focused: null };
  private frame = 0;
  /** The canvas holds nothing (its initial state). */
  private empty = true;

  constructor(private readonly viewer: OpenSeadragon.Viewer) {
    this.canvas = document.createElement('canvas');
    Object.assign(this.canvas.style, {
      position: 'absolute',
      inset: '0',
      width: '100%',
      height: '100%',
      pointerEvents: 'none',
    });
    this.canvas.dataset.testid = 'prediction-overlay';
    this.canvas.dataset.cells = '0';
    this.context = this.canvas.getContext('2d')!;
    // Right above the slide's own canvas: drawings added later stay on top of the grid.
    viewer.drawer.canvas.after(this.canvas);
    viewer.addHandler('update-viewport', this.render);
    viewer.addHandler('resize', this.requestRender);
    viewer.addHandler('open', this.requestRender);
  }

  set(options: Partial<OverlayOptions>): void {
    this.options = { ...this.options, ...options };
    this.requestRender();
  }

  destroy(): void {
    cancelAnimationFrame(this.frame);
    this.viewer.removeHandler('update-viewport', this.render);
    this.viewer.removeHandler('resize', this.requestRender);
    this.viewer.removeHandler('open', this.requestRender);
    this.canvas.remove();
  }

  private readonly requestRender = (): void => {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(this.render);
  };

  private readonly render = (): void => {
    const { canvas, context, options } = this;
    const t = viewTransform(this.viewer);
    const shown = t !== null && options.visible;
    // Nothing to show and nothing on the canvas: a cleared canvas is still composited again, and on a software
    // compositor that is a full-pane copy per frame per pane.
    if (!shown && this.empty) return;
    // OpenSeadragon's own record of its size: reading the element's would lay the page out again in every frame.
    const { x: cssWidth, y: cssHeight } = this.viewer.viewport.getContainerSize();
    const ratio = window.devicePixelRatio || 1;
    const width = Math.round(cssWidth * ratio);
    const height = Math.round(cssHeight * ratio);
    if (canvas.width !== width || canvas.height !== height) Object.assign(canvas, { width, height });
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, width, height);
    this.empty = !shown;
    if (!shown) {
      canvas.dataset.cells = '0';
      return;
    }
    const corners = [
      toImage(t, [0, 0]),
      toImage(t, [cssWidth, 0]),
      toImage(t, [0, cssHeight]),
      toImage(t, [cssWidth, cssHeight]),
    ];
    const size = options.cellSize;
    const [minX, maxX] = [Math.min(...corners.map((p) => p[0])) - size, Math.max(...corners.map((p) => p[0]))];
    const [minY, maxY] = [Math.min(...corners.map((p) => p[1])) - size, Math.max(...corners.map((p) => p[1]))];
    context.setTransform(ratio * t.a, ratio * t.b, ratio * t.c, ratio * t.d, ratio * t.e, ratio * t.f);
    context.globalAlpha = options.opacity;
    const byColor = new Map<string, Path2D>();
    let painted = 0;
    for (const cell of options.cells) {
      const [x, y] = [cell.x * size, cell.y * size];
      if (x < minX || x > maxX || y < minY || y > maxY) continue;
      let path = byColor.get(cell.color);
      if (!path) byColor.set(cell.color, (path = new Path2D()));
      path.rect(x, y, size, size);
      painted++;
    }
    for (const [color, path] of byColor) {
      context.fillStyle = color;
      context.fill(path);
    }
    context.globalAlpha = 1;
    if (options.focused) {
      context.strokeStyle = '#1c7ed6';
      context.lineWidth = 3 / t.scale;
      context.strokeRect(options.focused.x * size, options.focused.y * size, size, size);
    }
    canvas.dataset.cells = String(painted);
  };
}
