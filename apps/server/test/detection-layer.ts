import { detectionsOf } from '../src/modules/detections/detection-file.ts';
import { storeDetections } from '../src/modules/detections/detection-import.ts';
import { factories } from './factories.ts';
import { nucleusLayout, syntheticDetections } from './synthetic-detections.ts';
import type { TestDatabase } from './test-database.ts';

type Region = { x: number; y: number; width: number; height: number };

/**
 * A new layer of 9,000 × 7,000 pixels with one import per [region, nuclei] pair, stored as the import job stores
 * them; the count each import stored, in order.
 */
export async function layerWithImports(database: TestDatabase, imports: readonly (readonly [Region, number])[]) {
  const make = factories(database.db);
  const imageId = await make.image(await make.case());
  const size = { width: 9_000, height: 7_000 };
  const layerId = await make.imageLayer(imageId, size);
  const target = { imageId, layerId, accountId: null, name: 'nuclei.geojson', size };
  const stored: number[] = [];
  for (const [region, count] of imports) {
    const detections = detectionsOf(syntheticDetections(nucleusLayout(region, count)), size);
    stored.push((await storeDetections(database.pool, detections, target, { maxFeatures: 100_000 })).count);
  }
  return { layerId, stored };
}
