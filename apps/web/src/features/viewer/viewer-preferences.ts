import {
  DEFAULT_DRAWING_LINE_COLOR,
  DEFAULT_DRAWING_LINE_WIDTH,
  MAX_DRAWING_LINE_WIDTH,
  PAGE_SIZE_OPTIONS,
  SCREEN_SETTING_DEFAULTS,
} from '@pathology/contract';
import { z } from 'zod';

/*
 * The viewer's preferences kept in this browser (spec part 1 §3, part 2 §3 and §9), one localStorage key each, the
 * value as JSON. Every field falls back to its own default, so a value written by an older or newer build, a hand
 * edit or broken JSON never breaks the viewer: it reads the defaults instead.
 */

export const VIEWER_VERSIONS = ['v1', 'v2'] as const;
export const ViewerVersionSchema = z.enum(VIEWER_VERSIONS);
export type ViewerVersion = z.infer<typeof ViewerVersionSchema>;

export const DEFAULT_DRAWING_PREFERENCES = {
  /** The drawing tool last chosen; null is the select tool. */
  mode: null as string | null,
  autoSave: false,
  autoSaveVisibility: 'public' as 'public' | 'private',
  autoFillTitle: false,
  showDrawing: true,
  showTitle: true,
  showMeasurement: true,
  lineWidth: DEFAULT_DRAWING_LINE_WIDTH,
  /** Grey (part 2 §3), as the colour the server stores. */
  lineColor: DEFAULT_DRAWING_LINE_COLOR,
};

export const DrawingPreferencesSchema = z.object({
  mode: z.string().nullable().catch(DEFAULT_DRAWING_PREFERENCES.mode),
  autoSave: z.boolean().catch(DEFAULT_DRAWING_PREFERENCES.autoSave),
  autoSaveVisibility: z.enum(['public', 'private']).catch(DEFAULT_DRAWING_PREFERENCES.autoSaveVisibility),
  autoFillTitle: z.boolean().catch(DEFAULT_DRAWING_PREFERENCES.autoFillTitle),
  showDrawing: z.boolean().catch(DEFAULT_DRAWING_PREFERENCES.showDrawing),
  showTitle: z.boolean().catch(DEFAULT_DRAWING_PREFERENCES.showTitle),
  showMeasurement: z.boolean().catch(DEFAULT_DRAWING_PREFERENCES.showMeasurement),
  lineWidth: z.number().int().min(1).max(MAX_DRAWING_LINE_WIDTH).catch(DEFAULT_DRAWING_PREFERENCES.lineWidth),
  lineColor: z
    .string()
    .regex(/^#[0-9a-f]{6}$/i)
    .catch(DEFAULT_DRAWING_PREFERENCES.lineColor),
});
export type DrawingPreferences = z.infer<typeof DrawingPreferencesSchema>;

export const DEFAULT_SNAPSHOT_PREFERENCES = { magnification: true, scale: true };

/** What a snapshot burns into the picture: the zoom text and the scale bar. */
export const SnapshotPreferencesSchema = z.object({
  magnification: z.boolean().catch(DEFAULT_SNAPSHOT_PREFERENCES.magnification),
  scale: z.boolean().catch(DEFAULT_SNAPSHOT_PREFERENCES.scale),
});
export type SnapshotPreferences = z.infer<typeof SnapshotPreferencesSchema>;

/** Each preference: its localStorage key (the spec's name), its schema and its default. */
export const LOCAL_PREFERENCES = {
  viewerVersion: { schema: ViewerVersionSchema, defaultValue: 'v2' as ViewerVersion },
  drawing: { schema: DrawingPreferencesSchema, defaultValue: DEFAULT_DRAWING_PREFERENCES },
  /** The AI model last chosen (kept only when it is among the available models; part 2 §4). */
  predictionModel: { schema: z.string().min(1).nullable(), defaultValue: null as string | null },
  snapshot: { schema: SnapshotPreferencesSchema, defaultValue: DEFAULT_SNAPSHOT_PREFERENCES },
  /** The case list's page size, also saved in the case_list screen setting: used until that arrives, or without it. */
  casesPerPage: {
    schema: z.literal(PAGE_SIZE_OPTIONS),
    defaultValue: SCREEN_SETTING_DEFAULTS.case_list.pageSize,
  },
} as const;

export type LocalPreferenceKey = keyof typeof LOCAL_PREFERENCES;
export type LocalPreferences = { [K in LocalPreferenceKey]: z.infer<(typeof LOCAL_PREFERENCES)[K]['schema']> };

type PreferenceStorage = Pick<Storage, 'getItem' | 'setItem'>;

function defaultStorage(): PreferenceStorage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // Storage can throw (privacy modes, sandboxed frames).
  }
}

/** Reads a stored text (or null) as the preference; anything unreadable gives the default. */
export function parsePreference<K extends LocalPreferenceKey>(key: K, text: string | null): LocalPreferences[K] {
  const { schema, defaultValue } = LOCAL_PREFERENCES[key];
  if (text === null) return structuredClone(defaultValue) as LocalPreferences[K];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return structuredClone(defaultValue) as LocalPreferences[K];
  }
  const parsed = schema.safeParse(json);
  return (parsed.success ? parsed.data : structuredClone(defaultValue)) as LocalPreferences[K];
}

export function readPreference<K extends LocalPreferenceKey>(
  key: K,
  storage: PreferenceStorage | undefined = defaultStorage(),
): LocalPreferences[K] {
  let text: string | null = null;
  try {
    text = storage?.getItem(key) ?? null;
  } catch {
    // Unreadable storage: the defaults.
  }
  return parsePreference(key, text);
}

/** Stores a preference; returns false when the browser refused (the choice then lasts for this page only). */
export function writePreference<K extends LocalPreferenceKey>(
  key: K,
  value: LocalPreferences[K],
  storage: PreferenceStorage | undefined = defaultStorage(),
): boolean {
  try {
    storage?.setItem(key, JSON.stringify(value));
    return storage !== undefined;
  } catch {
    return false;
  }
}
