import type { Drawing, DrawingGeometry, DrawingShape, Position } from '@pathology/contract';
import type OpenSeadragon from 'openseadragon';
import { geometryFromGesture, handlesOf, isMeaningfulGesture, reshape, translate } from './drawing-geometry.ts';
import { viewTransform } from './osd-view-transform.ts';
import { toImage, toScreen, type ViewTransform } from './view-transform.ts';
import type { DrawingScene } from './drawing-scene.ts';

export type DrawingTool = 'select' | DrawingShape;

/** How near (screen pixels) a press must be to a line, a handle or a polygon's first point. */
const HIT_TOLERANCE = 6;
const HANDLE_TOLERANCE = 9;
const CLOSE_TOLERANCE = 12;
/** A freehand path takes a new point once the pointer moved this far (screen pixels). */
const FREEHAND_STEP = 3;

export interface GestureCallbacks {
  tool(): DrawingTool;
  selectedId(): string | null;
  select(id: string | null): void;
  /** A finished shape in image pixels. */
  create(shape: DrawingShape, geometry: DrawingGeometry): void;
  /** A selected drawing moved or reshaped: the scene already shows `after`. */
  change(before: Drawing, after: Drawing): void;
  preview(preview: { shape: DrawingShape; geometry: DrawingGeometry } | null): void;
  /** The scene changed in place (a drag in progress). */
  redraw(): void;
}

type Edit =
  { kind: 'move'; from: Position; original: Drawing } | { kind: 'reshape'; handle: number; original: Drawing };

/**
 * The pointer side of drawing on an OpenSeadragon viewer. Drawing tools take over press, drag and
 * release (the slide no longer pans under them); the select tool picks the smallest drawing under the
 * pointer, moves it or drags one of its handles, and leaves the slide to pan everywhere else.
 */
export class DrawingGestures {
  private points: Position[] = [];
  private screenPoints: Position[] = [];
  private edit: Edit | null = null;
  // Kept because OpenSeadragon clears `viewer.canvas` when it is destroyed, which may come first on unmount.
  private readonly canvas: HTMLElement;

  constructor(
    private readonly viewer: OpenSeadragon.Viewer,
    private readonly scene: DrawingScene,
    private readonly callbacks: GestureCallbacks,
  ) {
    viewer.addHandler('canvas-press', this.onPress);
    viewer.addHandler('canvas-drag', this.onDrag);
    viewer.addHandler('canvas-release', this.onRelease);
    viewer.addHandler('canvas-click', this.onClick);
    viewer.addHandler('canvas-double-click', this.onDoubleClick);
    this.canvas = viewer.canvas;
    this.canvas.addEventListener('pointermove', this.onPointerMove);
  }

  destroy(): void {
    this.viewer.removeHandler('canvas-press', this.onPress);
    this.viewer.removeHandler('canvas-drag', this.onDrag);
    this.viewer.removeHandler('canvas-release', this.onRelease);
    this.viewer.removeHandler('canvas-click', this.onClick);
    this.viewer.removeHandler('canvas-double-click', this.onDoubleClick);
    this.canvas.removeEventListener('pointermove', this.onPointerMove);
  }

  /** Drops a drawing in progress (Escape, another tool). */
  cancel(): void {
    this.points = [];
    this.screenPoints = [];
    this.edit = null;
    this.callbacks.preview(null);
  }

  /** Finishes a polygon in progress (Enter). */
  finishPolygon(): void {
    if (this.callbacks.tool() !== 'polygon') return;
    this.finish('polygon');
  }

  private transform(): ViewTransform | null {
    return viewTransform(this.viewer);
  }

  private at(position: OpenSeadragon.Point): { image: Position; screen: Position } | null {
    const t = this.transform();
    if (!t) return null;
    const screen: Position = [position.x, position.y];
    return { image: toImage(t, screen), screen };
  }

  private finish(shape: DrawingShape, closed = true): void {
    // The two clicks of a double click land on one spot: keep one point of each such pair.
    const kept = this.screenPoints.map(
      (p, i) => i === 0 || Math.hypot(p[0] - this.screenPoints[i - 1]![0], p[1] - this.screenPoints[i - 1]![1]) >= 3,
    );
    const points = this.points.filter((_, i) => kept[i]);
    const screenPoints = this.screenPoints.filter((_, i) => kept[i]);
    this.cancel();
    if (points.length === 0 || !isMeaningfulGesture(shape, screenPoints)) return;
    this.callbacks.create(shape, geometryFromGesture(shape, points, closed));
  }

  private showPreview(shape: DrawingShape, extra?: Position): void {
    const points = extra ? [...this.points, extra] : this.points;
    if (points.length === 0) return;
    const closed = shape !== 'polygon' || points.length >= 3;
    this.callbacks.preview({
      shape,
      geometry: geometryFromGesture(shape, points, shape === 'freehand' ? false : closed),
    });
  }

  private readonly onPress = (event: OpenSeadragon.CanvasPressEvent): void => {
    const tool = this.callbacks.tool();
    const at = this.at(event.position);
    if (!at) return;
    if (tool === 'select') {
      this.edit = this.editAt(at.image, at.screen);
      return;
    }
    if (tool === 'polygon' || tool === 'point') return;
    this.points = [at.image];
    this.screenPoints = [at.screen];
  };

  /** What a press in select mode takes hold of: a handle of the selection, or a drawing one may change. */
  private editAt(image: Position, screen: Position): Edit | null {
    const t = this.transform()!;
    const selectedId = this.callbacks.selectedId();
    const selected = selectedId == null ? undefined : this.scene.get(selectedId);
    if (selected?.editable) {
      const handle = handlesOf(selected.geometry).find(({ at }) => {
        const [x, y] = toScreen(t, at);
        return Math.hypot(x - screen[0], y - screen[1]) <= HANDLE_TOLERANCE;
      });
      if (handle) return { kind: 'reshape', handle: handle.index, original: selected };
    }
    const hit = this.scene.hit(image, HIT_TOLERANCE / t.scale);
    if (!hit) return null;
    this.callbacks.select(hit.id);
    return hit.editable ? { kind: 'move', from: image, original: hit } : null;
  }

  private readonly onDrag = (event: OpenSeadragon.CanvasDragEvent): void => {
    const tool = this.callbacks.tool();
    const at = this.at(event.position);
    if (!at) return;
    if (tool === 'select') {
      if (!this.edit) return;
      event.preventDefaultAction = true;
      const { original } = this.edit;
      const geometry =
        this.edit.kind === 'move'
          ? translate(original.geometry, at.image[0] - this.edit.from[0], at.image[1] - this.edit.from[1])
          : reshape(original.shapeType, original.geometry, this.edit.handle, at.image);
      this.scene.put({ ...original, geometry });
      this.callbacks.redraw();
      return;
    }
    if (tool === 'polygon' || tool === 'point') return;
    event.preventDefaultAction = true;
    if (this.points.length === 0) return;
    if (tool === 'freehand') {
      const last = this.screenPoints.at(-1)!;
      if (Math.hypot(at.screen[0] - last[0], at.screen[1] - last[1]) < FREEHAND_STEP) return;
      this.points.push(at.image);
      this.screenPoints.push(at.screen);
    } else {
      this.points = [this.points[0]!, at.image];
      this.screenPoints = [this.screenPoints[0]!, at.screen];
    }
    this.showPreview(tool);
  };

  private readonly onRelease = (): void => {
    const tool = this.callbacks.tool();
    if (tool === 'select') {
      const edit = this.edit;
      this.edit = null;
      const after = edit ? this.scene.get(edit.original.id) : undefined;
      if (edit && after && after.geometry !== edit.original.geometry) this.callbacks.change(edit.original, after);
      return;
    }
    if (tool === 'polygon' || tool === 'point' || this.points.length === 0) return;
    if (tool === 'freehand') {
      // Ending near the start closes the outline into a region; elsewhere it stays an open line.
      const [first, last] = [this.screenPoints[0]!, this.screenPoints.at(-1)!];
      this.finish('freehand', Math.hypot(first[0] - last[0], first[1] - last[1]) <= CLOSE_TOLERANCE * 2);
      return;
    }
    this.finish(tool);
  };

  private readonly onClick = (event: OpenSeadragon.CanvasClickEvent): void => {
    const tool = this.callbacks.tool();
    const at = this.at(event.position);
    if (!at || !event.quick) return;
    if (tool === 'select') {
      const t = this.transform()!;
      if (!this.scene.hit(at.image, HIT_TOLERANCE / t.scale)) this.callbacks.select(null);
      return;
    }
    if (tool === 'point') {
      this.points = [at.image];
      this.screenPoints = [at.screen];
      this.finish('point');
      return;
    }
    if (tool !== 'polygon') return;
    event.preventDefaultAction = true;
    const first = this.screenPoints[0];
    if (
      first &&
      this.points.length >= 3 &&
      Math.hypot(first[0] - at.screen[0], first[1] - at.screen[1]) <= CLOSE_TOLERANCE
    ) {
      this.finish('polygon');
      return;
    }
    this.points.push(at.image);
    this.screenPoints.push(at.screen);
    this.showPreview('polygon');
  };

  private readonly onDoubleClick = (event: OpenSeadragon.CanvasDoubleClickEvent): void => {
    if (this.callbacks.tool() === 'select') return;
    event.preventDefaultAction = true;
    if (this.callbacks.tool() === 'polygon') this.finish('polygon');
  };

  private readonly onPointerMove = (event: PointerEvent): void => {
    if (this.callbacks.tool() !== 'polygon' || this.points.length === 0) return;
    const t = this.transform();
    if (!t) return;
    const bounds = this.viewer.canvas.getBoundingClientRect();
    this.showPreview('polygon', toImage(t, [event.clientX - bounds.left, event.clientY - bounds.top]));
  };
}
