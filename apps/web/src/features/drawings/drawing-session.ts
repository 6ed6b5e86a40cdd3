import type { Drawing, UpdateDrawingRequest } from '@pathology/contract';
import type { DrawingScene } from './drawing-scene.ts';

/** One edit: what the drawing was before and after (null: it did not exist). */
export interface DrawingChange {
  before: Drawing | null;
  after: Drawing | null;
}

/** A request that brings the server to what the viewer shows. */
export type SaveOperation =
  | { kind: 'create'; drawing: Drawing }
  | { kind: 'update'; drawing: Drawing; patch: UpdateDrawingRequest }
  | { kind: 'delete'; drawing: Drawing };

const UNDO_LIMIT = 200;

function patchBetween(saved: Drawing, current: Drawing): UpdateDrawingRequest {
  const patch: UpdateDrawingRequest = {};
  if (JSON.stringify(saved.geometry) !== JSON.stringify(current.geometry)) patch.geometry = current.geometry;
  if (saved.title !== current.title) patch.title = current.title;
  if (saved.visibility !== current.visibility) patch.visibility = current.visibility;
  if (saved.style.lineColor !== current.style.lineColor || saved.style.lineWidth !== current.style.lineWidth) {
    patch.style = current.style;
  }
  return patch;
}

/**
 * The drawings being edited on one layer: every change goes into the scene at once, is kept for
 * undo and redo, and is remembered against what the server last confirmed, so saving (at once with
 * auto-save, else on demand) sends exactly the difference. New drawings carry an id made here, so a
 * drawing keeps its id through save, undo and redo.
 */
export class DrawingSession {
  private readonly undoStack: DrawingChange[] = [];
  private readonly redoStack: DrawingChange[] = [];
  /** Drawings changed since the server last confirmed them, with that confirmed state (null: not on the server). */
  private readonly saved = new Map<string, Drawing | null>();
  private readonly listeners = new Set<() => void>();

  constructor(readonly scene: DrawingScene) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  private put(id: string, drawing: Drawing | null): void {
    if (!this.saved.has(id)) this.saved.set(id, this.scene.get(id) ?? null);
    if (drawing) this.scene.put(drawing);
    else this.scene.remove(id);
  }

  /**
   * The server's drawings (the new baseline), with the edits not yet saved laid over them. The list may be
   * narrowed by the visibility filter, so a drawing missing from it keeps the baseline it had: it may only be
   * hidden, and treating it as gone would turn its edit into a create.
   */
  load(drawings: readonly Drawing[]): void {
    const edited = new Map([...this.saved.keys()].map((id) => [id, this.scene.get(id) ?? null]));
    const server = new Map(drawings.map((drawing) => [drawing.id, drawing]));
    this.scene.reset(drawings);
    for (const [id, drawing] of edited) {
      this.saved.set(id, server.get(id) ?? this.saved.get(id) ?? null);
      if (drawing) this.scene.put(drawing);
      else this.scene.remove(id);
    }
    const unsaved = new Set(this.pending().map((op) => op.drawing.id));
    for (const id of [...this.saved.keys()]) if (!unsaved.has(id)) this.saved.delete(id);
    this.notify();
  }

  apply(change: DrawingChange): void {
    const id = (change.after ?? change.before)!.id;
    this.put(id, change.after);
    this.undoStack.push(change);
    if (this.undoStack.length > UNDO_LIMIT) this.undoStack.shift();
    this.redoStack.length = 0;
    this.notify();
  }

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }

  get canRedo(): boolean {
    return this.redoStack.length > 0;
  }

  undo(): boolean {
    const change = this.undoStack.pop();
    if (!change) return false;
    this.put((change.before ?? change.after)!.id, change.before);
    this.redoStack.push(change);
    this.notify();
    return true;
  }

  redo(): boolean {
    const change = this.redoStack.pop();
    if (!change) return false;
    this.put((change.after ?? change.before)!.id, change.after);
    this.undoStack.push(change);
    this.notify();
    return true;
  }

  /** What saving would send, in the order made. */
  pending(): SaveOperation[] {
    const operations: SaveOperation[] = [];
    for (const [id, saved] of this.saved) {
      const current = this.scene.get(id) ?? null;
      if (saved == null && current != null) operations.push({ kind: 'create', drawing: current });
      else if (saved != null && current == null) operations.push({ kind: 'delete', drawing: saved });
      else if (saved != null && current != null) {
        const patch = patchBetween(saved, current);
        if (Object.keys(patch).length > 0) operations.push({ kind: 'update', drawing: current, patch });
      }
    }
    return operations;
  }

  get hasUnsaved(): boolean {
    return this.pending().length > 0;
  }

  /** The server confirmed an operation: its state is the new baseline (the server's copy, or gone). */
  confirm(operation: SaveOperation, stored: Drawing | null): void {
    const id = operation.drawing.id;
    if (stored) {
      this.saved.set(id, stored);
      // The server's copy has the author name and times; keep the user's later edits if any were made meanwhile.
      const current = this.scene.get(id);
      if (current && Object.keys(patchBetween(operation.drawing, current)).length === 0) this.scene.put(stored);
    } else {
      this.saved.set(id, null);
    }
    if (this.pending().every((op) => op.drawing.id !== id)) this.saved.delete(id);
    this.notify();
  }
}
