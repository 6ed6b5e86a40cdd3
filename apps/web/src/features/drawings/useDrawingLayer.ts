import { notifications } from '@mantine/notifications';
import {
  micronsPerPixelXY,
  roundGeometry,
  type Drawing,
  type DrawingGeometry,
  type DrawingShape,
  type DrawingVisibilityFilter,
  type Image,
} from '@pathology/contract';
import type OpenSeadragon from 'openseadragon';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text.ts';
import { useLocalPreference } from '../viewer/useLocalPreference.ts';
import { DrawingGestures, type DrawingTool } from './drawing-gestures.ts';
import { DrawingRenderer, type RenderOptions } from './drawing-renderer.ts';
import { DrawingScene } from './drawing-scene.ts';
import { DrawingSession, type SaveOperation } from './drawing-session.ts';
import {
  createDrawing,
  deleteDrawing,
  matchesVisibility,
  updateDrawing,
  useDrawingVisibilityFilter,
  useLayerDrawings,
} from './drawings.queries.ts';
import { newDrawingId } from './drawing-id.ts';

interface Options {
  viewer: OpenSeadragon.Viewer | null;
  ready: boolean;
  image: Image;
  layerId: string | undefined;
  /** May draw here (canCreateDrawing). */
  canCreate: boolean;
  author: { accountId: string; name: string } | undefined;
}

async function send(operation: SaveOperation): Promise<Drawing | null> {
  switch (operation.kind) {
    case 'create':
      return createDrawing(operation.drawing);
    case 'update':
      return updateDrawing(operation.drawing, operation.patch);
    case 'delete':
      await deleteDrawing(operation.drawing);
      return null;
  }
}

/**
 * The drawings of the open layer: loaded in one request, drawn over the slide, made and changed with
 * the pointer, kept in an undoable session, and saved at once (auto-save) or on demand.
 */
export function useDrawingLayer({ viewer, ready, image, layerId, canCreate, author }: Options) {
  const { t } = useTranslation();
  const [preferences, setPreferences] = useLocalPreference('drawing');
  const { filter, ready: filterReady, setFilter } = useDrawingVisibilityFilter();
  const activeFilter = filter ?? 'ALL';
  const loaded = useLayerDrawings(image.id, layerId);
  const session = useMemo(() => new DrawingSession(new DrawingScene()), [layerId]);
  const [, refresh] = useReducer((count: number) => count + 1, 0);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [preview, setPreview] = useState<RenderOptions['preview']>(null);
  const [saving, setSaving] = useState(false);
  const renderer = useRef<DrawingRenderer | null>(null);
  const gestures = useRef<DrawingGestures | null>(null);
  const savingRef = useRef(false);

  const tool: DrawingTool = canCreate && preferences.mode ? (preferences.mode as DrawingTool) : 'select';
  const latest = useRef({ tool, selectedId, preferences, author, t });
  latest.current = { tool, selectedId, preferences, author, t };

  useEffect(() => {
    if (!loaded.data || !filterReady) return;
    session.load(
      activeFilter === 'ALL' ? loaded.data : loaded.data.filter((drawing) => matchesVisibility(drawing, activeFilter)),
    );
  }, [loaded.data, session, activeFilter, filterReady]);

  const save = useCallback(async () => {
    if (savingRef.current) return;
    savingRef.current = true;
    setSaving(true);
    try {
      for (let next = session.pending()[0]; next; next = session.pending()[0]) {
        session.confirm(next, await send(next));
      }
    } catch (error) {
      notifications.show({
        color: 'red',
        title: latest.current.t('drawings.saveFailed'),
        message: errorText(error, latest.current.t),
      });
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  }, [session]);

  useEffect(
    () =>
      session.subscribe(() => {
        refresh();
        renderer.current?.requestRender();
        if (latest.current.preferences.autoSave) void save();
      }),
    [session, save],
  );

  const create = useCallback(
    (shape: DrawingShape, geometry: DrawingGeometry) => {
      const { preferences: prefs, author: me, t: translate } = latest.current;
      const now = new Date().toISOString();
      const sameShape = session.scene.all().filter((drawing) => drawing.shapeType === shape).length;
      const drawing: Drawing = {
        id: newDrawingId(),
        imageId: image.id,
        imageLayerId: layerId!,
        authorAccountId: me?.accountId ?? null,
        authorName: me?.name ?? null,
        visibility: prefs.autoSaveVisibility,
        title: prefs.autoFillTitle ? `${translate(`drawings.shapeNames.${shape}`)} ${sameShape + 1}` : '',
        shapeType: shape,
        // On the server's 0.1-pixel grid from the start, so what is measured now is what is stored.
        geometry: roundGeometry(geometry),
        style: { lineWidth: prefs.lineWidth, lineColor: prefs.lineColor },
        createdAt: now,
        updatedAt: now,
        editable: true,
      };
      session.apply({ before: null, after: drawing });
      setSelectedId(drawing.id);
    },
    [session, image.id, layerId],
  );

  useEffect(() => {
    if (!viewer || !ready) return undefined;
    const created = new DrawingRenderer(viewer, session.scene, {
      showDrawings: true,
      showTitles: true,
      showMeasurements: true,
      selectedId: null,
      preview: null,
      micronsPerPixel: micronsPerPixelXY(image.resolution),
    });
    const pointer = new DrawingGestures(viewer, session.scene, {
      tool: () => latest.current.tool,
      selectedId: () => latest.current.selectedId,
      select: setSelectedId,
      create,
      change: (before, after) =>
        session.apply({ before, after: { ...after, geometry: roundGeometry(after.geometry) } }),
      preview: (next) => {
        const prefs = latest.current.preferences;
        setPreview(next && { ...next, color: prefs.lineColor, width: prefs.lineWidth });
      },
      redraw: () => created.requestRender(),
    });
    renderer.current = created;
    gestures.current = pointer;
    return () => {
      pointer.destroy();
      created.destroy();
      renderer.current = null;
      gestures.current = null;
    };
  }, [viewer, ready, session, create, image.resolution]);

  useEffect(() => {
    renderer.current?.setOptions({
      showDrawings: preferences.showDrawing,
      showTitles: preferences.showTitle,
      showMeasurements: preferences.showMeasurement,
      selectedId,
      preview,
    });
  }, [preferences.showDrawing, preferences.showTitle, preferences.showMeasurement, selectedId, preview, session]);

  const selected = selectedId == null ? undefined : session.scene.get(selectedId);

  const setTool = (next: DrawingTool) => {
    gestures.current?.cancel();
    setPreferences({ ...preferences, mode: next === 'select' ? null : next });
  };

  const updateSelected = (changes: Partial<Pick<Drawing, 'title' | 'visibility' | 'style'>>) => {
    if (!selected?.editable) return;
    session.apply({ before: selected, after: { ...selected, ...changes } });
  };

  const deleteSelected = () => {
    if (!selected?.editable) return;
    session.apply({ before: selected, after: null });
    setSelectedId(null);
  };

  return {
    loading: loaded.isPending || !filterReady,
    error: loaded.error,
    retry: () => void loaded.refetch(),
    count: session.scene.size,
    filter: activeFilter,
    // The list on screen may be older than what was saved since: a new filter reads it again.
    setFilter: (next: DrawingVisibilityFilter) => {
      setFilter(next);
      void loaded.refetch();
    },
    tool,
    setTool,
    preferences,
    setPreferences,
    selected,
    select: setSelectedId,
    updateSelected,
    deleteSelected,
    canUndo: session.canUndo,
    canRedo: session.canRedo,
    undo: () => session.undo(),
    redo: () => session.redo(),
    unsavedCount: session.pending().length,
    save: () => void save(),
    saving,
    cancelGesture: () => gestures.current?.cancel(),
    finishPolygon: () => gestures.current?.finishPolygon(),
    accountId: author?.accountId,
  };
}

export type DrawingLayer = ReturnType<typeof useDrawingLayer>;
