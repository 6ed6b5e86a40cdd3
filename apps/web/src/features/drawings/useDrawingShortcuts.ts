import { useEffect, useRef } from 'react';
import { isTyping } from '../viewer/viewer-shortcuts.ts';
import { drawingCommandOf } from './drawing-shortcuts.ts';
import type { DrawingLayer } from './useDrawingLayer.ts';

/** The drawing keys (see DrawingHelp) while the viewer is open; typing in a field keeps its keys. */
export function useDrawingShortcuts(layer: DrawingLayer, canCreate: boolean): void {
  const latest = useRef(layer);
  latest.current = layer;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || isTyping(event.target)) return;
      const command = drawingCommandOf(event);
      if (!command) return;
      const current = latest.current;
      switch (command.kind) {
        case 'tool':
          if (command.tool !== 'select' && !canCreate) return;
          current.setTool(command.tool);
          break;
        case 'undo':
          current.undo();
          break;
        case 'redo':
          current.redo();
          break;
        case 'delete':
          if (!current.selected?.editable) return;
          current.deleteSelected();
          break;
        case 'cancel':
          current.cancelGesture();
          current.select(null);
          break;
        case 'finish':
          current.finishPolygon();
          break;
        case 'save':
          current.save();
          break;
        case 'toggle':
          current.setPreferences({ ...current.preferences, showDrawing: !current.preferences.showDrawing });
          break;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [canCreate]);
}
