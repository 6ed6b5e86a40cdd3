import type { DrawingTool } from './drawing-gestures.ts';

/** Keys of the drawing tools (R, F, S, 0, + and - belong to the viewer). */
export const TOOL_KEYS: Record<DrawingTool, string> = {
  select: 'V',
  freehand: 'D',
  line: 'L',
  arrow: 'A',
  rectangle: 'B',
  ellipse: 'E',
  polygon: 'P',
  point: 'O',
  ruler: 'M',
};

export type DrawingCommand =
  | { kind: 'tool'; tool: DrawingTool }
  | { kind: 'undo' }
  | { kind: 'redo' }
  | { kind: 'delete' }
  | { kind: 'cancel' }
  | { kind: 'finish' }
  | { kind: 'save' }
  | { kind: 'toggle' };

const TOOL_OF_KEY = new Map(Object.entries(TOOL_KEYS).map(([tool, key]) => [key, tool as DrawingTool]));

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** The drawing command a key press asks for (the caller has already ruled out typing in a field). */
export function drawingCommandOf(event: KeyLike): DrawingCommand | undefined {
  const key = event.key.length === 1 ? event.key.toUpperCase() : event.key;
  if (event.altKey) return undefined;
  if (event.ctrlKey || event.metaKey) {
    if (key === 'Z') return event.shiftKey ? { kind: 'redo' } : { kind: 'undo' };
    if (key === 'Y') return { kind: 'redo' };
    if (key === 'S') return { kind: 'save' };
    return undefined;
  }
  if (key === 'Delete' || key === 'Backspace') return { kind: 'delete' };
  if (key === 'Escape') return { kind: 'cancel' };
  if (key === 'Enter') return { kind: 'finish' };
  if (key === 'H') return { kind: 'toggle' };
  const tool = TOOL_OF_KEY.get(key);
  return tool ? { kind: 'tool', tool } : undefined;
}
