import { Readable } from 'node:stream';

/** QuPath-style classes of the synthetic nuclei, with their colours as QuPath writes them ([r, g, b]). */
export const SYNTHETIC_CLASSES = [
  { name: 'Tumor', color: [200, 0, 0] },
  { name: 'Stroma', color: [150, 200, 150] },
  { name: 'Immune cells', color: [160, 90, 160] },
  { name: 'Necrosis', color: [50, 50, 50] },
] as const;

/** Nuclei on a regular grid over a region of the image: every centre, class and count is known in advance. */
export interface NucleusLayout {
  x: number;
  y: number;
  columns: number;
  rows: number;
  /** Distance between neighbouring centres, image pixels. */
  spacing: number;
  count: number;
}

/** The grid that puts `count` nuclei evenly over a region. */
export function nucleusLayout(region: { x: number; y: number; width: number; height: number }, count: number) {
  const columns = Math.max(1, Math.ceil(Math.sqrt((count * region.width) / region.height)));
  const rows = Math.ceil(count / columns);
  const spacing = Math.min(region.width / columns, region.height / rows);
  return { x: region.x, y: region.y, columns, rows, spacing, count } satisfies NucleusLayout;
}

/** Centre and class of nucleus `index`: row by row, classes cycling along each row. */
export function nucleusAt(layout: NucleusLayout, index: number) {
  const column = index % layout.columns;
  const row = Math.floor(index / layout.columns);
  return {
    cx: layout.x + (column + 0.5) * layout.spacing,
    cy: layout.y + (row + 0.5) * layout.spacing,
    classIndex: (column + row) % SYNTHETIC_CLASSES.length,
  };
}

/** How many nuclei of each class (by name) have their centre inside a rectangle. */
export function nucleiInside(layout: NucleusLayout, rect: { x: number; y: number; width: number; height: number }) {
  const counts = new Map<string, number>(SYNTHETIC_CLASSES.map((item) => [item.name, 0]));
  for (let index = 0; index < layout.count; index += 1) {
    const { cx, cy, classIndex } = nucleusAt(layout, index);
    if (cx >= rect.x && cx <= rect.x + rect.width && cy >= rect.y && cy <= rect.y + rect.height) {
      const name = SYNTHETIC_CLASSES[classIndex]!.name;
      counts.set(name, counts.get(name)! + 1);
    }
  }
  return counts;
}

/** One nucleus as QuPath exports a detection: a 12–24-vertex polygon, class, measurements. */
export function nucleusFeature(layout: NucleusLayout, index: number) {
  const { cx, cy, classIndex } = nucleusAt(layout, index);
  const vertices = 12 + (index % 13);
  const radius = layout.spacing * 0.3;
  const ring: [number, number][] = [];
  for (let k = 0; k < vertices; k += 1) {
    const angle = (2 * Math.PI * k) / vertices;
    // A little unevenness, so outlines look like nuclei rather than circles.
    const r = radius * (0.85 + 0.15 * Math.sin(angle * 3 + index));
    ring.push([Math.round((cx + r * Math.cos(angle)) * 10) / 10, Math.round((cy + r * Math.sin(angle)) * 10) / 10]);
  }
  ring.push(ring[0]!);
  const kind = SYNTHETIC_CLASSES[classIndex]!;
  return {
    type: 'Feature',
    id: `nucleus-${index}`,
    geometry: { type: 'Polygon', coordinates: [ring] },
    properties: {
      objectType: 'cell',
      classification: { name: kind.name, color: kind.color },
      measurements: { 'Nucleus: Area µm^2': Math.round(Math.PI * radius * radius), 'Nucleus: Circularity': 0.9 },
    },
  };
}

/** The layout as a GeoJSON FeatureCollection text, streamed in chunks (a million nuclei never sit in memory). */
export function syntheticDetections(layout: NucleusLayout, chunkSize = 2_000): Readable {
  return Readable.from(
    (function* chunks() {
      yield '{"type":"FeatureCollection","features":[';
      for (let start = 0; start < layout.count; start += chunkSize) {
        const end = Math.min(layout.count, start + chunkSize);
        const features: string[] = [];
        for (let index = start; index < end; index += 1) features.push(JSON.stringify(nucleusFeature(layout, index)));
        yield (start === 0 ? '' : ',') + features.join(',');
      }
      yield ']}';
    })(),
  );
}

/** The whole file as one string, for small layouts. */
export async function syntheticDetectionsText(layout: NucleusLayout): Promise<string> {
  let text = '';
  for await (const chunk of syntheticDetections(layout)) text += chunk as string;
  return text;
}
