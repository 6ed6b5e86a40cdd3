import {
  measureDrawing,
  measurementText,
  type Drawing,
  type DrawingGeometry,
  type DrawingShape,
} from '@pathology/contract';
import type OpenSeadragon from 'openseadragon';
import { boxOf, handlesOf, pathsOf } from './drawing-geometry.ts';
import { detailLevel, pathsAtDetail, type DrawingScene, type SceneEntry } from './drawing-scene.ts';
import { addPoint, PaintJob } from './paint-job.ts';
import { viewTransform } from './osd-view-transform.ts';
import { between, sameTransform, toImage, type ViewTransform } from './view-transform.ts';

export interface RenderOptions {
  showDrawings: boolean;
  showTitles: boolean;
  showMeasurements: boolean;
  selectedId: string | null;
  /** The drawing being made, dashed. */
  preview: { shape: DrawingShape; geometry: DrawingGeometry; color: string; width: number } | null;
  micronsPerPixel: { x: number; y: number } | undefined;
}

const SELECTED_COLOR = '#228be6';
const HANDLE_SIZE = 8;
/**
 * Painting time per frame. The first picture with drawings is awaited (the layer is loading): it takes
 * a few long frames, which finish it sooner than many short ones between the slide's own. Later ones
 * replace a picture already on screen, and a software canvas spends some four times as long
 * rasterizing what was painted, so they keep each frame near 30 Hz.
 */
const FIRST_PICTURE_BUDGET_MS = 120;
const REPAINT_BUDGET_MS = 6;
/** A new picture is painted once the slide has not moved for this long; until then the last one moves with it. */
const SETTLE_MS = 150;
const MEASURES_KEPT = 5000;

/** A canvas over the slide, filling it; pictures are moved by CSS transforms from their top left corner. */
function layerCanvas(): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  // A canvas keeps its own 300 × 150 unless told to fill the viewer.
  Object.assign(canvas.style, {
    position: 'absolute',
    inset: '0',
    width: '100%',
    height: '100%',
    pointerEvents: 'none',
    transformOrigin: '0 0',
  });
  return canvas;
}

function outline(geometry: DrawingGeometry): Path2D {
  const path = new Path2D();
  for (const points of pathsOf(geometry)) {
    path.moveTo(points[0]![0], points[0]![1]);
    for (let i = 1; i < points.length; i++) path.lineTo(points[i]![0], points[i]![1]);
  }
  return path;
}

/**
 * Draws a layer's drawings on a canvas over the OpenSeadragon viewer, in step with its animation.
 * The drawings in view are painted into an off-screen picture a few milliseconds per frame (PaintJob)
 * once the slide stands still; until a picture for the current view is complete, the last complete
 * one is moved and scaled by a CSS transform to where the slide now is (the compositor's work, nothing
 * repainted). So a moving frame costs the same with ten or ten thousand drawings, and a large layer
 * sharpens shortly after the slide stops. The selection, its handles and the shape being drawn are
 * painted every frame on top.
 */
export class DrawingRenderer {
  readonly canvas: HTMLCanvasElement;
  private readonly context: CanvasRenderingContext2D;
  private readonly cached = new WeakMap<SceneEntry, Map<number, Path2D>>();
  private labels = new WeakMap<Drawing, string>();
  private frame = 0;
  private job: PaintJob | null = null;
  /** The canvas showing the last complete picture, and the view it was painted for (null: none yet). */
  private readonly shown: HTMLCanvasElement;
  private readonly shownContext: ImageBitmapRenderingContext;
  private shownTransform: ViewTransform | null = null;
  /** How many drawings the shown picture has: none means the layer is still loading. */
  private shownDrawn = 0;
  /** The scene version the shown picture was painted from (-1: it must be painted again). */
  private shownVersion = -1;
  /**
   * Where the next picture is painted, out of the page. A finished picture is handed to `shown` as
   * pixels: a canvas drawn on directly may keep its strokes as a recording that a software-rendering
   * browser rasterizes again on every frame the picture moves.
   */
  private readonly spare = new OffscreenCanvas(1, 1);
  /** The overlay has a selection or preview on it that the next frame must clear. */
  private overlayUsed = false;
  /** The transform of the previous frame, and when it last changed. */
  private lastTransform: ViewTransform | null = null;
  private movedAt = 0;
  private measured = 0;

  constructor(
    private readonly viewer: OpenSeadragon.Viewer,
    private readonly scene: DrawingScene,
    private options: RenderOptions,
  ) {
    this.shown = layerCanvas();
    this.shownContext = this.shown.getContext('bitmaprenderer')!;
    this.canvas = layerCanvas();
    this.canvas.dataset.testid = 'drawing-layer';
    this.context = this.canvas.getContext('2d')!;
    viewer.canvas.append(this.shown, this.canvas);
    viewer.addHandler('update-viewport', this.render);
    viewer.addHandler('resize', this.requestRender);
    viewer.addHandler('open', this.requestRender);
  }

  destroy(): void {
    cancelAnimationFrame(this.frame);
    this.viewer.removeHandler('update-viewport', this.render);
    this.viewer.removeHandler('resize', this.requestRender);
    this.viewer.removeHandler('open', this.requestRender);
    this.canvas.remove();
    this.shown.remove();
  }

  setOptions(options: Partial<RenderOptions>): void {
    const labelsChange =
      options.showTitles !== undefined ||
      options.showMeasurements !== undefined ||
      options.micronsPerPixel !== undefined;
    this.options = { ...this.options, ...options };
    if (labelsChange) {
      this.labels = new WeakMap();
      this.job = null;
      this.shownVersion = -1;
    }
    this.requestRender();
  }

  readonly requestRender = (): void => {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(this.render);
  };

  private readonly sources = {
    path: (entry: SceneEntry, imagePixelsPerScreenPixel: number): Path2D => {
      const level = detailLevel(imagePixelsPerScreenPixel);
      let byLevel = this.cached.get(entry);
      if (!byLevel) {
        byLevel = new Map<number, Path2D>();
        this.cached.set(entry, byLevel);
      }
      let path = byLevel.get(level);
      if (!path) {
        path = new Path2D();
        for (const points of pathsAtDetail(entry, imagePixelsPerScreenPixel)) {
          path.moveTo(points[0]![0], points[0]![1]);
          for (let i = 1; i < points.length; i++) path.lineTo(points[i]![0], points[i]![1]);
        }
        byLevel.set(level, path);
      }
      return path;
    },
    label: (drawing: Drawing): string => {
      let text = this.labels.get(drawing);
      if (text === undefined) {
        const parts: string[] = [];
        if (this.options.showTitles && drawing.title) parts.push(drawing.title);
        const measured = this.options.showMeasurements || drawing.shapeType === 'ruler';
        if (measured && drawing.shapeType !== 'point') {
          parts.push(measurementText(measureDrawing(drawing.geometry, this.options.micronsPerPixel)));
        }
        text = parts.join('  ');
        this.labels.set(drawing, text);
      }
      return text;
    },
  };

  private fit(canvas: HTMLCanvasElement | OffscreenCanvas, width: number, height: number): void {
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
  }

  /** A job for the drawings in view, or null when there are none (nothing to paint). */
  private startJob(t: ViewTransform, ratio: number): PaintJob | null {
    const { x: clientWidth, y: clientHeight } = this.viewer.viewport.getContainerSize();
    const corners = [
      toImage(t, [0, 0]),
      toImage(t, [clientWidth, 0]),
      toImage(t, [0, clientHeight]),
      toImage(t, [clientWidth, clientHeight]),
    ];
    const entries = this.scene.within(boxOf({ type: 'LineString', coordinates: corners }));
    if (entries.length === 0) return null;
    this.fit(this.spare, this.canvas.width, this.canvas.height);
    return new PaintJob(this.spare, t, this.scene.version, entries, ratio, this.sources);
  }

  /** Each frame's painting, as a User Timing measure (`drawing-frame`) the benchmark and a browser's profiler can read. */
  private readonly render = (): void => {
    const start = performance.now();
    this.paint();
    performance.measure('drawing-frame', { start });
    // The browser keeps measures until cleared: a long session keeps only the recent ones.
    if (++this.measured % MEASURES_KEPT === 0) performance.clearMeasures('drawing-frame');
  };

  private hidePicture(): void {
    this.job = null;
    this.shownTransform = null;
    this.shown.style.visibility = 'hidden';
  }

  private paint(): void {
    const { canvas } = this;
    const ratio = window.devicePixelRatio || 1;
    // OpenSeadragon's own record of its size: reading the element's would lay the page out again in every frame.
    const size = this.viewer.viewport.getContainerSize();
    const width = Math.round(size.x * ratio);
    const height = Math.round(size.y * ratio);
    if (canvas.width !== width || canvas.height !== height) {
      for (const layer of [canvas, this.shown, this.spare]) this.fit(layer, width, height);
      this.hidePicture();
    }
    const t = viewTransform(this.viewer);
    if (!t || !this.options.showDrawings) {
      this.hidePicture();
      this.clearOverlay();
      canvas.dataset.drawn = '0';
      return;
    }

    const now = performance.now();
    if (this.lastTransform == null || !sameTransform(this.lastTransform, t)) this.movedAt = now;
    this.lastTransform = t;
    if (this.shownTransform && now - this.movedAt < SETTLE_MS) {
      // A picture begun now would be stale next frame, and rasterizing what it painted would stall the
      // frame: while the slide moves the last picture moves with it.
      this.job = null;
      this.requestRender();
    } else {
      this.step(t, ratio);
    }
    if (this.shownTransform && this.shownDrawn > 0) {
      // Moving the last picture with the slide is the compositor's work: nothing is painted again.
      const move = between(this.shownTransform, t);
      this.shown.style.transform = `matrix(${move.a}, ${move.b}, ${move.c}, ${move.d}, ${move.e}, ${move.f})`;
      this.shown.style.visibility = 'visible';
    } else {
      this.shown.style.visibility = 'hidden';
    }
    this.paintOverlay(t, ratio);
  }

  /** Paints more of the picture for `t`, and shows it once complete. */
  private step(t: ViewTransform, ratio: number): void {
    const current = this.job;
    const version = this.scene.version;
    // The slide draws again while still (its tiles arrive): the picture on screen is already this view's.
    if (!current && this.shownTransform && this.shownVersion === version && sameTransform(this.shownTransform, t)) {
      return;
    }
    const stale = !current || !sameTransform(current.t, t) || current.version !== version;
    const job = stale ? this.startJob(t, ratio) : current;
    if (!job) {
      // No drawing in view: an empty picture, without clearing and handing over a canvas of pixels for it.
      this.show(t, version, 0);
      return;
    }
    this.job = job;
    const budget = this.shownTransform && this.shownDrawn > 0 ? REPAINT_BUDGET_MS : FIRST_PICTURE_BUDGET_MS;
    if (job.step(performance.now() + budget)) {
      this.shownContext.transferFromImageBitmap(this.spare.transferToImageBitmap());
      this.show(job.t, job.version, job.drawn);
    } else {
      this.requestRender();
    }
  }

  private show(t: ViewTransform, version: number, drawn: number): void {
    this.shownTransform = t;
    this.shownVersion = version;
    this.shownDrawn = drawn;
    this.job = null;
    this.canvas.dataset.drawn = String(drawn);
  }

  private clearOverlay(): void {
    if (!this.overlayUsed) return;
    this.context.setTransform(1, 0, 0, 1, 0, 0);
    this.context.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this.overlayUsed = false;
  }

  /** The selection, its handles and the shape being drawn, painted every frame over the picture. */
  private paintOverlay(t: ViewTransform, ratio: number): void {
    this.clearOverlay();
    if (this.options.selectedId == null && this.options.preview == null) return;
    this.overlayUsed = true;
    this.context.setTransform(ratio * t.a, ratio * t.b, ratio * t.c, ratio * t.d, ratio * t.e, ratio * t.f);
    this.drawSelection(t);
    this.drawPreview(t);
  }

  private drawSelection(t: ViewTransform): void {
    const selected = this.options.selectedId == null ? undefined : this.scene.get(this.options.selectedId);
    if (!selected) return;
    const { context } = this;
    const perPixel = 1 / t.scale;
    context.strokeStyle = SELECTED_COLOR;
    context.lineWidth = (selected.style.lineWidth + 2) * perPixel;
    if (selected.geometry.type === 'Point') {
      const disc = new Path2D();
      addPoint(disc, selected.geometry.coordinates, perPixel * 1.6);
      context.stroke(disc);
      return;
    }
    context.stroke(outline(selected.geometry));
    const handles = handlesOf(selected.geometry);
    // Thousands of handles would hide the outline: a long freehand shape is moved whole until zoomed in.
    if (!selected.editable || (handles.length > 200 && t.scale < 4)) return;
    const size = HANDLE_SIZE * perPixel;
    context.fillStyle = '#fff';
    context.lineWidth = 1.5 * perPixel;
    for (const { at } of handles) {
      context.fillRect(at[0] - size / 2, at[1] - size / 2, size, size);
      context.strokeRect(at[0] - size / 2, at[1] - size / 2, size, size);
    }
  }

  private drawPreview(t: ViewTransform): void {
    const { preview } = this.options;
    if (!preview) return;
    const { context } = this;
    const perPixel = 1 / t.scale;
    const path = outline(preview.geometry);
    if (preview.geometry.type === 'Point') addPoint(path, preview.geometry.coordinates, perPixel);
    context.setLineDash([6 * perPixel, 4 * perPixel]);
    context.strokeStyle = preview.color;
    context.lineWidth = preview.width * perPixel;
    context.stroke(path);
    context.setLineDash([]);
  }
}
