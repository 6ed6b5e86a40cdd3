import type { DrawingGeometry } from '@pathology/contract';
import type { DrawingDetections } from '../drawings/drawing-export.ts';
import type { DetectionRepository } from './detection.repository.ts';
import { drawingArea } from './drawing-area.ts';

/**
 * For the drawings download: the detections inside each area drawing, per class name, on layers that have any.
 * One indexed count per drawing, so an image of a handful of regions over a million detections stays quick.
 */
export function createDrawingDetectionCounts(detections: Pick<DetectionRepository, 'classes' | 'countInArea'>) {
  return async function countsOf(
    drawings: readonly { id: string; imageLayerId: string; geometry: unknown }[],
  ): Promise<DrawingDetections> {
    const classesByLayer = new Map<string, { index: number; name: string }[]>();
    for (const layerId of new Set(drawings.map((drawing) => drawing.imageLayerId))) {
      const classes = await detections.classes(layerId);
      if (classes.length > 0) classesByLayer.set(layerId, classes);
    }
    const classNames = [...new Set([...classesByLayer.values()].flat().map((item) => item.name))];
    const counts = new Map<string, Map<string, number>>();
    for (const drawing of drawings) {
      const classes = classesByLayer.get(drawing.imageLayerId);
      const area = classes && drawingArea(drawing.geometry as DrawingGeometry);
      if (!classes || !area) continue;
      const byIndex = await detections.countInArea(drawing.imageLayerId, area);
      counts.set(drawing.id, new Map(classes.map((item) => [item.name, byIndex.get(item.index) ?? 0])));
    }
    return { classNames, counts };
  };
}
