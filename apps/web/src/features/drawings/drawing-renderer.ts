import {
  measureDrawing,
  measurementText,
  type Drawing,
  type DrawingGeometry,
  type DrawingShape,
  type Position,
} from '@pathology/contract';
import OpenSeadragon from 'openseadragon';
import { boxOf, handlesOf, pathsOf } from './drawing-geometry.ts';
import { pathsAtDetail, type DrawingScene, type SceneEntry } from './drawing-scene.ts';

export interface RenderOptions {
  showDrawings: boolean;
  showTitles: boolean;
  showMeasurements: boolean;
  selectedId: string | null;
  /** The drawing being made, dashed. */
  preview: { shape: DrawingShape; geometry: DrawingGeometry; color: string; width: number } | null;
  micronsPerPixel: { x: number; y: number } | undefined;
}

/** Image → viewer-element pixels: x' = a·x + c·y + e, y' = b·x + d·y + f (rotation included). */
export interface ViewTransform {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
  /** Screen pixels per image pixel. */
  scale: number;
}

export function toScreen(t: ViewTransform, [x, y]: Position): Position {
  return [t.a * x + t.c * y + t.e, t.b * x + t.d * y + t.f];
}

export function toImage(t: ViewTransform, [sx, sy]: Position): Position {
  const det = t.a * t.d - t.b * t.c;
  const [x, y] = [sx - t.e, sy - t.f];
  return [(t.d * x - t.c * y) / det, (-t.b * x + t.a * y) / det];
}

/** The current image-to-screen transform of the viewer's first item, or null before an image is open. */
export function viewTransform(viewer: OpenSeadragon.Viewer): ViewTransform | null {
  const item = viewer.world.getItemAt(0);
  if (!item) return null;
  const unit = 1024;
  const origin = item.imageToViewerElementCoordinates(new OpenSeadragon.Point(0, 0));
  const alongX = item.imageToViewerElementCoordinates(new OpenSeadragon.Point(unit, 0));
  const alongY = item.imageToViewerElementCoordinates(new OpenSeadragon.Point(0, unit));
  const a = (alongX.x - origin.x) / unit;
  const b = (alongX.y - origin.y) / unit;
  return {
    a,
    b,
    c: (alongY.x - origin.x) / unit,
    d: (alongY.y - origin.y) / unit,
    e: origin.x,
    f: origin.y,
    scale: Math.hypot(a, b),
  };
}

const SELECTED_COLOR = '#228be6';
const HANDLE_SIZE = 8;
const POINT_RADIUS = 5;
const ARROW_HEAD = 14;
const RULER_TICK = 7;
/** Titles and measurements are written on drawings at least this big on screen, and on at most this many. */
const LABEL_MIN_SIZE = 24;
const MAX_LABELS = 400;
/** A drawing smaller than this on screen is drawn as a dot of its colour. */
const DOT_SIZE = 2;

interface Group {
  color: string;
  width: number;
  strokes: Path2D;
  fills: Path2D;
}

/**
 * Draws a layer's drawings on a canvas over the OpenSeadragon viewer, in step with every frame of its
 * animation. One stroke per colour and width: each drawing's outline is a Path2D in image pixels,
 * made once per level of detail and added to its group's path, and the whole canvas takes the
 * image-to-screen transform, so panning and zooming never rebuild geometry.
 */
export class DrawingRenderer {
  readonly canvas: HTMLCanvasElement;
  private readonly context: CanvasRenderingContext2D;
  private readonly cached = new WeakMap<SceneEntry, Map<number, Path2D>>();
  private labels = new WeakMap<Drawing, string>();
  private frame = 0;
  /** How many drawings the last frame showed (on screen, any size), for tests and the benchmark. */
  lastDrawn = 0;

  constructor(
    private readonly viewer: OpenSeadragon.Viewer,
    private readonly scene: DrawingScene,
    private options: RenderOptions,
  ) {
    this.canvas = document.createElement('canvas');
    // A canvas keeps its own 300 × 150 unless told to fill the viewer.
    Object.assign(this.canvas.style, {
      position: 'absolute',
      inset: '0',
      width: '100%',
      height: '100%',
      pointerEvents: 'none',
    });
    this.canvas.dataset.testid = 'drawing-layer';
    this.context = this.canvas.getContext('2d')!;
    viewer.canvas.appendChild(this.canvas);
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
  }

  setOptions(options: Partial<RenderOptions>): void {
    this.options = { ...this.options, ...options };
    // Label texts depend on what is shown and on the resolution.
    this.labels = new WeakMap();
    this.requestRender();
  }

  readonly requestRender = (): void => {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(this.render);
  };

  private path(entry: SceneEntry, imagePixelsPerScreenPixel: number): Path2D {
    const level = Math.max(0, Math.floor(Math.log2(Math.max(imagePixelsPerScreenPixel, 1e-9))));
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
  }

  private label(drawing: Drawing): string {
    let text = this.labels.get(drawing);
    if (text === undefined) {
      const parts: string[] = [];
      if (this.options.showTitles && drawing.title) parts.push(drawing.title);
      const measurable =
        drawing.shapeType !== 'point' && (this.options.showMeasurements || drawing.shapeType === 'ruler');
      if (measurable) parts.push(measurementText(measureDrawing(drawing.geometry, this.options.micronsPerPixel)));
      text = parts.join('  ');
      this.labels.set(drawing, text);
    }
    return text;
  }

  /** Arrow heads and ruler ticks, in image pixels sized for the current zoom. */
  private decorations(drawing: Drawing, path: Path2D, perPixel: number): void {
    if (drawing.geometry.type !== 'LineString' || (drawing.shapeType !== 'arrow' && drawing.shapeType !== 'ruler'))
      return;
    const [from, to] = [drawing.geometry.coordinates[0]!, drawing.geometry.coordinates.at(-1)!];
    const angle = Math.atan2(to[1] - from[1], to[0] - from[0]);
    if (drawing.shapeType === 'arrow') {
      const head = ARROW_HEAD * perPixel;
      for (const side of [-1, 1]) {
        path.moveTo(to[0], to[1]);
        path.lineTo(to[0] - head * Math.cos(angle + side * 0.45), to[1] - head * Math.sin(angle + side * 0.45));
      }
      return;
    }
    const tick = RULER_TICK * perPixel;
    for (const end of [from, to]) {
      path.moveTo(end[0] + tick * Math.sin(angle), end[1] - tick * Math.cos(angle));
      path.lineTo(end[0] - tick * Math.sin(angle), end[1] + tick * Math.cos(angle));
    }
  }

  private readonly render = (): void => {
    const { canvas, context } = this;
    const ratio = window.devicePixelRatio || 1;
    const width = Math.round(canvas.clientWidth * ratio);
    const height = Math.round(canvas.clientHeight * ratio);
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, width, height);
    const t = viewTransform(this.viewer);
    if (!t || !this.options.showDrawings) {
      this.lastDrawn = 0;
      this.canvas.dataset.drawn = '0';
      return;
    }
    const perPixel = 1 / t.scale;
    const corners = [
      [0, 0],
      [canvas.clientWidth, 0],
      [0, canvas.clientHeight],
      [canvas.clientWidth, canvas.clientHeight],
    ].map((corner) => toImage(t, corner as Position));
    const view = boxOf({ type: 'LineString', coordinates: corners });
    const entries = this.scene.within(view);

    const groups = new Map<string, Group>();
    const labelled: SceneEntry[] = [];
    for (const entry of entries) {
      const { drawing } = entry;
      const key = `${drawing.style.lineColor}|${drawing.style.lineWidth}`;
      let group = groups.get(key);
      if (!group) {
        group = {
          color: drawing.style.lineColor,
          width: drawing.style.lineWidth,
          strokes: new Path2D(),
          fills: new Path2D(),
        };
        groups.set(key, group);
      }
      const size = Math.max(entry.maxX - entry.minX, entry.maxY - entry.minY) * t.scale;
      if (drawing.geometry.type === 'Point') {
        const [x, y] = drawing.geometry.coordinates;
        group.fills.moveTo(x + POINT_RADIUS * perPixel, y);
        group.fills.arc(x, y, POINT_RADIUS * perPixel, 0, 2 * Math.PI);
      } else if (size < DOT_SIZE) {
        group.fills.rect(
          entry.minX,
          entry.minY,
          Math.max(entry.maxX - entry.minX, DOT_SIZE * perPixel),
          Math.max(entry.maxY - entry.minY, DOT_SIZE * perPixel),
        );
      } else {
        group.strokes.addPath(this.path(entry, perPixel));
        this.decorations(drawing, group.strokes, perPixel);
      }
      if (size >= LABEL_MIN_SIZE && labelled.length < MAX_LABELS) labelled.push(entry);
    }

    context.setTransform(ratio * t.a, ratio * t.b, ratio * t.c, ratio * t.d, ratio * t.e, ratio * t.f);
    context.lineJoin = 'round';
    context.lineCap = 'round';
    for (const group of groups.values()) {
      context.strokeStyle = group.color;
      context.fillStyle = group.color;
      context.lineWidth = group.width * perPixel;
      context.stroke(group.strokes);
      context.fill(group.fills);
    }
    this.drawSelection(t, perPixel);
    this.drawPreview(perPixel);

    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    this.drawLabels(t, labelled);
    this.lastDrawn = entries.length;
    this.canvas.dataset.drawn = String(entries.length);
  };

  private drawSelection(t: ViewTransform, perPixel: number): void {
    const selected = this.options.selectedId == null ? undefined : this.scene.get(this.options.selectedId);
    if (!selected) return;
    const { context } = this;
    const outline = new Path2D();
    for (const points of pathsOf(selected.geometry)) {
      outline.moveTo(points[0]![0], points[0]![1]);
      for (const [x, y] of points.slice(1)) outline.lineTo(x, y);
    }
    context.strokeStyle = SELECTED_COLOR;
    context.lineWidth = (selected.style.lineWidth + 2) * perPixel;
    context.stroke(outline);
    if (!selected.editable) return;
    const size = HANDLE_SIZE * perPixel;
    context.fillStyle = '#fff';
    context.lineWidth = 1.5 * perPixel;
    const handles =
      selected.geometry.type === 'Point' ? [{ at: selected.geometry.coordinates }] : handlesOf(selected.geometry);
    // Thousands of handles would hide the outline: a freehand shape is moved, not reshaped point by point.
    if (handles.length > 200 && t.scale < 4) return;
    for (const { at } of handles) {
      context.fillRect(at[0] - size / 2, at[1] - size / 2, size, size);
      context.strokeRect(at[0] - size / 2, at[1] - size / 2, size, size);
    }
  }

  private drawPreview(perPixel: number): void {
    const { preview } = this.options;
    if (!preview) return;
    const { context } = this;
    const path = new Path2D();
    if (preview.geometry.type === 'Point') {
      const [x, y] = preview.geometry.coordinates;
      path.arc(x, y, POINT_RADIUS * perPixel, 0, 2 * Math.PI);
    }
    for (const points of pathsOf(preview.geometry)) {
      path.moveTo(points[0]![0], points[0]![1]);
      for (const [x, y] of points.slice(1)) path.lineTo(x, y);
    }
    context.setLineDash([6 * perPixel, 4 * perPixel]);
    context.strokeStyle = preview.color;
    context.lineWidth = preview.width * perPixel;
    context.stroke(path);
    context.setLineDash([]);
  }

  private drawLabels(t: ViewTransform, entries: readonly SceneEntry[]): void {
    const { context } = this;
    context.font = '12px system-ui, sans-serif';
    context.textBaseline = 'bottom';
    context.lineWidth = 3;
    context.strokeStyle = 'rgba(255, 255, 255, 0.9)';
    for (const entry of entries) {
      const text = this.label(entry.drawing);
      if (!text) continue;
      const [x, y] = toScreen(t, [entry.minX, entry.minY]);
      context.strokeText(text, x, y - 4);
      context.fillStyle = '#1a1b1e';
      context.fillText(text, x, y - 4);
    }
  }
}
