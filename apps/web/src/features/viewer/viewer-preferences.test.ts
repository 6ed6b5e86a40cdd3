import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DRAWING_PREFERENCES,
  DEFAULT_SNAPSHOT_PREFERENCES,
  parsePreference,
  readPreference,
  writePreference,
} from './viewer-preferences.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('local viewer preferences', () => {
  it('have the spec defaults when nothing is stored', () => {
    const storage = memoryStorage();
    expect(readPreference('viewerVersion', storage)).toBe('v2');
    expect(readPreference('predictionModel', storage)).toBeNull();
    expect(readPreference('snapshot', storage)).toEqual({ magnification: true, scale: true });
    expect(readPreference('drawing', storage)).toEqual({
      mode: null,
      autoSave: false,
      autoSaveVisibility: 'public',
      autoFillTitle: false,
      showDrawing: true,
      showTitle: true,
      showMeasurement: true,
      lineWidth: 2,
      // Part 2 §3's grey, in the form drawings store colours.
      lineColor: '#868e96',
    });
  });

  it('fall back to the defaults on broken JSON or a wrong type', () => {
    expect(parsePreference('viewerVersion', '{oops')).toBe('v2');
    expect(parsePreference('viewerVersion', '"v3"')).toBe('v2');
    expect(parsePreference('viewerVersion', 'v1')).toBe('v2'); // not JSON
    expect(parsePreference('snapshot', 'null')).toEqual(DEFAULT_SNAPSHOT_PREFERENCES);
    expect(parsePreference('drawing', '[1,2]')).toEqual(DEFAULT_DRAWING_PREFERENCES);
    expect(parsePreference('predictionModel', '42')).toBeNull();
  });

  it('keep the valid fields of a partly broken object and default the rest', () => {
    expect(parsePreference('snapshot', '{"magnification":false,"scale":"yes"}')).toEqual({
      magnification: false,
      scale: true,
    });
    const drawing = parsePreference('drawing', '{"lineWidth":5,"lineColor":"#FA5252","autoSave":1}');
    expect(drawing).toEqual({ ...DEFAULT_DRAWING_PREFERENCES, lineWidth: 5, lineColor: '#FA5252' });
    // A colour name from an older build is no colour the server takes.
    expect(parsePreference('drawing', '{"lineColor":"grey"}').lineColor).toBe('#868e96');
  });

  it('does not hand out the shared default object', () => {
    const first = parsePreference('snapshot', null);
    first.scale = false;
    expect(parsePreference('snapshot', null).scale).toBe(true);
  });

  it('round-trips through storage as JSON', () => {
    const storage = memoryStorage();
    expect(writePreference('viewerVersion', 'v1', storage)).toBe(true);
    expect(storage.items.get('viewerVersion')).toBe('"v1"');
    expect(readPreference('viewerVersion', storage)).toBe('v1');
    writePreference('snapshot', { magnification: false, scale: true }, storage);
    expect(readPreference('snapshot', storage)).toEqual({ magnification: false, scale: true });
  });

  it('survive a storage that throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(readPreference('viewerVersion', broken)).toBe('v2');
    expect(writePreference('viewerVersion', 'v1', broken)).toBe(false);
  });
});

describe('casesPerPage', () => {
  it('keeps one of the page sizes the list offers, else the default 10', () => {
    expect(parsePreference('casesPerPage', '50')).toBe(50);
    expect(parsePreference('casesPerPage', null)).toBe(10);
    expect(parsePreference('casesPerPage', '37')).toBe(10);
    expect(parsePreference('casesPerPage', '"20"')).toBe(10);
  });
});
