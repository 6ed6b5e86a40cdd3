import { DEFAULT_COLOR_SETTINGS, type ColorSettings, type MyColorSource } from '@pathology/contract';
import { useDebouncedCallback } from '@mantine/hooks';
import type OpenSeadragon from 'openseadragon';
import { useEffect, useRef, useState } from 'react';
import { useMyColour, useSaveMyColour } from './colour.queries.ts';
import { applyColourToViewer } from './viewer-colour.ts';

/** Changes are saved this long after the last one, so a slider drag is one request. */
export const SAVE_DELAY_MS = 600;

export interface ColourEditor {
  /** Null until the saved colour has loaded. */
  settings: ColorSettings | null;
  source: MyColorSource | null;
  presetId: string | null;
  load: ReturnType<typeof useMyColour>;
  save: ReturnType<typeof useSaveMyColour>;
  change: (settings: ColorSettings) => void;
  reset: () => void;
  retrySave: () => void;
}

/**
 * The colour being edited for a case: starts from GET accounts/me/color, shows every change on the
 * viewer at once and saves it (debounced; a pending save is sent when the panel closes).
 */
export function useColourEditor(caseId: string, viewer: OpenSeadragon.Viewer | null): ColourEditor {
  const load = useMyColour(caseId);
  const save = useSaveMyColour();
  // Edits belong to the case they were made on; another case starts again from its saved colour.
  const [edited, setEdited] = useState<{ caseId: string; settings: ColorSettings } | null>(null);
  const own = edited?.caseId === caseId ? edited.settings : null;
  const settings = own ?? load.data?.settings ?? null;

  useEffect(() => {
    if (viewer != null && settings != null) applyColourToViewer(viewer, settings);
  }, [viewer, settings]);

  const saveLater = useDebouncedCallback(
    (target: string, next: ColorSettings) => save.mutate({ caseId: target, settings: next }),
    { delay: SAVE_DELAY_MS, flushOnUnmount: true },
  );
  // Switching cases sends what is pending for the previous one. (`flush` is replaced on every call,
  // so it is read at cleanup time, not captured.)
  useEffect(() => () => saveLater.flush(), [caseId, saveLater]);

  const change = (next: ColorSettings) => {
    setEdited({ caseId, settings: next });
    saveLater(caseId, next);
  };

  return {
    settings,
    source: own != null ? 'user' : (load.data?.source ?? null),
    presetId: own != null ? null : (load.data?.presetId ?? null),
    load,
    save,
    change,
    reset: () => change({ ...DEFAULT_COLOR_SETTINGS }),
    retrySave: () => {
      if (settings != null) save.mutate({ caseId, settings });
    },
  };
}

/**
 * For the viewer page: shows the caller's saved colour on the slide as soon as it loads, whether
 * or not the colour panel is open. Applies once per viewer; the panel takes over live changes.
 */
export function useSavedViewerColour(caseId: string, viewer: OpenSeadragon.Viewer | null): void {
  const saved = useMyColour(caseId).data;
  const appliedTo = useRef<{ viewer: OpenSeadragon.Viewer; caseId: string } | null>(null);
  useEffect(() => {
    if (viewer == null || saved == null) return;
    if (appliedTo.current?.viewer === viewer && appliedTo.current.caseId === caseId) return;
    appliedTo.current = { viewer, caseId };
    applyColourToViewer(viewer, saved.settings);
  }, [viewer, saved, caseId]);
}
