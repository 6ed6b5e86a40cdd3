import type { Drawing, Position } from '@pathology/contract';
import RBush from 'rbush';
import { boxOf, hits, pathsOf, type Box } from './drawing-geometry.ts';
import { encodedBox, encodedOutlines, encodedPathsOfDrawing } from './lazy-geometry.ts';
import { simplifyPath } from './simplify-path.ts';

/** A drawing in the scene: its box for the spatial index, and its outlines simplified per level of detail. */
export interface SceneEntry extends Box {
  drawing: Drawing;
  /** Paths simplified to 2^level image pixels, made the first time a zoom needs them. */
  details: Map<number, Position[][]>;
}

/**
 * The drawings of one layer, indexed by where they are (an R-tree), so that a frame draws and a click
 * tests only the drawings in view, and a zoomed-out frame draws outlines simplified to what a screen
 * pixel can show.
 */
export class DrawingScene {
  private tree = new RBush<SceneEntry>();
  private entries = new Map<string, SceneEntry>();
  /** Bumped on every change, so a renderer knows to draw again. */
  version = 0;

  private entryOf(drawing: Drawing): SceneEntry {
    const encoded = encodedPathsOfDrawing(drawing);
    return { ...(encoded ? encodedBox(encoded) : boxOf(drawing.geometry)), drawing, details: new Map() };
  }

  reset(drawings: readonly Drawing[]): void {
    this.entries = new Map(drawings.map((drawing) => [drawing.id, this.entryOf(drawing)]));
    this.tree = new RBush<SceneEntry>().load([...this.entries.values()]);
    this.version++;
  }

  put(drawing: Drawing): void {
    this.remove(drawing.id);
    const entry = this.entryOf(drawing);
    this.entries.set(drawing.id, entry);
    this.tree.insert(entry);
    this.version++;
  }

  remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.tree.remove(entry);
    this.entries.delete(id);
    this.version++;
  }

  get(id: string): Drawing | undefined {
    return this.entries.get(id)?.drawing;
  }

  get size(): number {
    return this.entries.size;
  }

  all(): Drawing[] {
    return [...this.entries.values()].map((entry) => entry.drawing);
  }

  /** Entries whose box meets `box`. */
  within(box: Box): SceneEntry[] {
    return this.tree.search(box);
  }

  /**
   * The drawing under `p` (image pixels) within `tolerance`: of several, the smallest, so a small
   * drawing inside a large region can still be picked.
   */
  hit(p: Position, tolerance: number, accept: (drawing: Drawing) => boolean = () => true): Drawing | undefined {
    const near = this.tree.search({
      minX: p[0] - tolerance,
      minY: p[1] - tolerance,
      maxX: p[0] + tolerance,
      maxY: p[1] + tolerance,
    });
    let best: SceneEntry | undefined;
    let bestArea = Infinity;
    for (const entry of near) {
      if (!accept(entry.drawing) || !hits(entry.drawing.geometry, p, tolerance)) continue;
      const area = (entry.maxX - entry.minX) * (entry.maxY - entry.minY);
      if (area < bestArea) {
        best = entry;
        bestArea = area;
      }
    }
    return best?.drawing;
  }
}

/**
 * The level of detail for a zoom: outlines are simplified to 2^level image pixels, about one screen
 * pixel, less than the width of the line; 0 (every point) from one screen pixel per image pixel on.
 */
export function detailLevel(imagePixelsPerScreenPixel: number): number {
  return Math.max(0, Math.floor(Math.log2(Math.max(imagePixelsPerScreenPixel, 1e-9))) + 1);
}

/** The paths of an entry as detailed as `imagePixelsPerScreenPixel` can show (level of detail, cached). */
export function pathsAtDetail(entry: SceneEntry, imagePixelsPerScreenPixel: number): Position[][] {
  const level = detailLevel(imagePixelsPerScreenPixel);
  if (level === 0) return pathsOf(entry.drawing.geometry);
  let paths = entry.details.get(level);
  if (!paths) {
    const encoded = encodedPathsOfDrawing(entry.drawing);
    paths = encoded
      ? encodedOutlines(encoded, 2 ** level)
      : pathsOf(entry.drawing.geometry).map((path) => simplifyPath(path, 2 ** level));
    entry.details.set(level, paths);
  }
  return paths;
}
