import { describe, expect, it } from 'vitest';
import { FeatureCollectionSplitter, NotAFeatureCollection, ValueTooLarge } from './feature-collection-splitter.ts';

/** What the splitter hands on for a file written in the given pieces. */
function split(pieces: readonly Buffer[]) {
  const features: unknown[] = [];
  const members: [string, unknown][] = [];
  const splitter = new FeatureCollectionSplitter({
    feature: (text) => features.push(JSON.parse(text)),
    member: (key, text) => members.push([key, JSON.parse(text)]),
  });
  for (const piece of pieces) splitter.write(piece);
  splitter.end();
  return { features, members };
}

/** The file cut in two at `at`. */
const cutAt = (bytes: Buffer, at: number) => [bytes.subarray(0, at), bytes.subarray(at)];
const byteByByte = (bytes: Buffer) => [...bytes].map((byte) => Buffer.from([byte]));

const TRICKY = Buffer.from(
  '\uFEFF {\r\n\t"type" : "FeatureCollection",\n' +
    '  "name": "braces } ] [ { and \\"quotes\\" in a string \\\\",\n' +
    '  "bbox": [0, 0, [1, [2]], {"a": "]"}],\n' +
    '  "features" : [\n' +
    '    {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[1, 2], [3.5, 4e1], [1, 2]]]},\n' +
    '     "properties": {"classification": {"name": "Tumor \\"A\\" {x} [y] \\\\", "color": [1, 2, 3]},\n' +
    '       "measurements": {"Nucleus: Area µm^2": 12.5, "a\\\\": -1}}} ,\n' +
    '    {"type":"Feature","properties":{"label":"}}]]\\\\\\""},"geometry":null},\n' +
    '    "a string", 42, null, true, [1, [2, {"3": [4]}]]\n' +
    '  ],\n' +
    '  "crs": null, "count": -1.5e3\n' +
    '}\n',
);

describe('splitting a FeatureCollection into features', () => {
  const whole = JSON.parse(TRICKY.toString('utf8').slice(1)) as { features: unknown[] } & Record<string, unknown>;
  const expected = {
    features: whole.features,
    members: Object.entries(whole).filter(([key]) => key !== 'features'),
  };

  it('hands on every feature and member whole, wherever the Buffers are cut', () => {
    expect(split([TRICKY])).toEqual(expected);
    for (let at = 0; at <= TRICKY.length; at += 1) expect(split(cutAt(TRICKY, at)), `cut at ${at}`).toEqual(expected);
    expect(split(byteByByte(TRICKY))).toEqual(expected);
  });

  it('keeps a multi-byte character cut between Buffers', () => {
    const text = Buffer.from('{"features":[{"name":"µm² 核"}]}');
    for (let at = 0; at <= text.length; at += 1) {
      expect(split(cutAt(text, at)).features, `cut at ${at}`).toEqual([{ name: 'µm² 核' }]);
    }
  });

  it('reads an empty features array, and a key written with escapes', () => {
    expect(split([Buffer.from('{"type":"FeatureCollection","features":[ ]}')])).toEqual({
      features: [],
      members: [['type', 'FeatureCollection']],
    });
    expect(split([Buffer.from('{"feat\\u0075res":[{"a":1}]}')]).features).toEqual([{ a: 1 }]);
    expect(split([Buffer.from('{}')])).toEqual({ features: [], members: [] });
  });

  it('hands on elements that are not objects as they are, for the caller to refuse', () => {
    expect(split([Buffer.from('{"features":[1,"x",[{}],null]}')]).features).toEqual([1, 'x', [{}], null]);
  });

  it('refuses a file cut short, wherever it is cut', () => {
    for (let at = 0; at < TRICKY.length - 1; at += 1) {
      expect(() => split([TRICKY.subarray(0, at)]), `cut at ${at}`).toThrow(NotAFeatureCollection);
    }
  });

  it.each([
    ['garbage after the object', '{"features":[{"a":1}]} x'],
    ['a second object', '{"features":[]}{"features":[]}'],
    ['garbage after the array', '{"features":[{"a":1}] x}'],
    ['an array at the top', '[{"features":[]}]'],
    ['features that are not an array', '{"features":{"a":{}}}'],
    ['features that are null', '{"features":null}'],
    ['a trailing comma in features', '{"features":[{"a":1},]}'],
    ['a missing comma between features', '{"features":[{"a":1} {"a":2}]}'],
    ['an empty element', '{"features":[,{"a":1}]}'],
    ['a trailing comma in the object', '{"features":[],}'],
    ['a key that is not a string', '{features:[]}'],
    ['a missing colon', '{"features" []}'],
    ['a missing value', '{"type":,"features":[]}'],
  ])('refuses %s', (_name, text) => {
    expect(() => split([Buffer.from(text)])).toThrow(NotAFeatureCollection);
  });
});

describe('a value longer than the limit', () => {
  it('stops the split at the piece that makes it too long, naming the feature, before holding the rest', () => {
    const features: string[] = [];
    const splitter = new FeatureCollectionSplitter({ feature: (text) => features.push(text), member: () => {} }, 1_000);
    splitter.write(Buffer.from('{"type":"FeatureCollection","features":[{"a":1},{"a":"'));
    splitter.write(Buffer.from('x'.repeat(900)));
    const thrown = (() => {
      try {
        splitter.write(Buffer.from('x'.repeat(200)));
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(ValueTooLarge);
    expect((thrown as ValueTooLarge).feature).toBe(1);
    expect(features).toEqual(['{"a":1}']);
  });

  it('also ends within one piece, and for another member of the FeatureCollection', () => {
    const splitter = new FeatureCollectionSplitter({ feature: () => {}, member: () => {} }, 10);
    expect(() => splitter.write(Buffer.from('{"name":"a name longer than ten"'))).toThrow(ValueTooLarge);
  });
});
