import type { Drawing, Position } from '@pathology/contract';
import type { SceneEntry } from './drawing-scene.ts';
import { toScreen, type ViewTransform } from './view-transform.ts';

const POINT_RADIUS = 5;
const ARROW_HEAD = 14;
const RULER_TICK = 7;
/** Titles and measurements are written on drawings at least this big on screen, and on at most this many. */
const LABEL_MIN_SIZE = 24;
const MAX_LABELS = 300;
/** A drawing smaller than this on screen is drawn as a dot of its colour. */
const DOT_SIZE = 2;
/** Drawings stroked between two looks at the clock. */
const SLICE = 16;

interface Group {
  color: string;
  width: number;
  strokes: Path2D;
  fills: Path2D;
}

export interface PaintSources {
  /** The drawing's outline as a path in image pixels, as detailed as the zoom needs. */
  path(entry: SceneEntry, imagePixelsPerScreenPixel: number): Path2D;
  /** The text written by the drawing (title, measurement), or '' for none. */
  label(drawing: Drawing): string;
}

/** Arrow heads and ruler ticks, in image pixels sized for the zoom. */
function addDecorations(drawing: Drawing, path: Path2D, perPixel: number): void {
  // The shape first: reading the geometry of a drawing from a layer list decodes its points.
  if ((drawing.shapeType !== 'arrow' && drawing.shapeType !== 'ruler') || drawing.geometry.type !== 'LineString')
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

/** A point as a small disc of constant screen size. */
export function addPoint(path: Path2D, [x, y]: Position, perPixel: number): void {
  path.moveTo(x + POINT_RADIUS * perPixel, y);
  path.arc(x, y, POINT_RADIUS * perPixel, 0, 2 * Math.PI);
}

/**
 * One picture of the drawings in view for one transform, painted a slice at a time: each call to
 * `step` paints drawings until its deadline and says whether the picture is complete. Slices stroke
 * once per colour and width; the outlines come from paths cached per level of detail.
 */
export class PaintJob {
  private index = 0;
  private readonly labelled: SceneEntry[] = [];
  private labelIndex = 0;
  private readonly context: OffscreenCanvasRenderingContext2D;

  constructor(
    readonly canvas: OffscreenCanvas,
    readonly t: ViewTransform,
    readonly version: number,
    private readonly entries: readonly SceneEntry[],
    private readonly ratio: number,
    private readonly sources: PaintSources,
  ) {
    this.context = canvas.getContext('2d')!;
    this.context.setTransform(1, 0, 0, 1, 0, 0);
    this.context.clearRect(0, 0, canvas.width, canvas.height);
  }

  get drawn(): number {
    return this.entries.length;
  }

  /** Paints until `deadline` (performance.now()); true once everything is painted. */
  step(deadline: number): boolean {
    const { context, t, ratio } = this;
    const perPixel = 1 / t.scale;
    while (this.index < this.entries.length) {
      const groups = new Map<string, Group>();
      // Stroking is most of the cost in a software-rendered canvas: a slice strokes a few dozen outlines at a time.
      const end = Math.min(this.entries.length, this.index + SLICE);
      for (; this.index < end; this.index++) this.add(this.entries[this.index]!, groups, perPixel);
      context.setTransform(ratio * t.a, ratio * t.b, ratio * t.c, ratio * t.d, ratio * t.e, ratio * t.f);
      context.lineJoin = 'bevel';
      for (const group of groups.values()) {
        context.strokeStyle = group.color;
        context.fillStyle = group.color;
        context.lineWidth = group.width * perPixel;
        context.stroke(group.strokes);
        context.fill(group.fills);
      }
      if (performance.now() > deadline) return false;
    }
    return this.paintLabels(deadline);
  }

  private add(entry: SceneEntry, groups: Map<string, Group>, perPixel: number): void {
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
    const size = Math.max(entry.maxX - entry.minX, entry.maxY - entry.minY) * this.t.scale;
    if (drawing.shapeType === 'point' && drawing.geometry.type === 'Point') {
      addPoint(group.fills, drawing.geometry.coordinates, perPixel);
    } else if (size < DOT_SIZE) {
      group.fills.rect(entry.minX, entry.minY, DOT_SIZE * perPixel, DOT_SIZE * perPixel);
    } else {
      group.strokes.addPath(this.sources.path(entry, perPixel));
      addDecorations(drawing, group.strokes, perPixel);
    }
    if (size >= LABEL_MIN_SIZE && this.labelled.length < MAX_LABELS) this.labelled.push(entry);
  }

  private paintLabels(deadline: number): boolean {
    const { context, ratio, t } = this;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.font = '12px system-ui, sans-serif';
    context.textBaseline = 'bottom';
    context.lineWidth = 3;
    context.strokeStyle = 'rgba(255, 255, 255, 0.9)';
    context.fillStyle = '#1a1b1e';
    for (; this.labelIndex < this.labelled.length; this.labelIndex++) {
      const entry = this.labelled[this.labelIndex]!;
      const text = this.sources.label(entry.drawing);
      if (text) {
        const [x, y] = toScreen(t, [entry.minX, entry.minY]);
        context.strokeText(text, x, y - 4);
        context.fillText(text, x, y - 4);
      }
      if (this.labelIndex % 16 === 15 && performance.now() > deadline) {
        this.labelIndex++;
        return this.labelIndex >= this.labelled.length;
      }
    }
    return true;
  }
}
