import {
  DEFAULT_PREDICTION_THRESHOLD,
  overlayGridSize,
  type PredictionLabelGroup,
  type PredictionResult,
} from '@pathology/contract';

/** A grid cell at or above the threshold, in the colour of its strongest label's group. */
export interface OverlayCell {
  x: number;
  y: number;
  /** Percent, of the strongest label. */
  probability: number;
  labelId: string;
  color: string;
}

const FALLBACK_COLOR = '#fa5252';

/** The colour of each label id: that of the label group naming it. */
export function labelColors(result: PredictionResult, groups: readonly PredictionLabelGroup[]): Map<string, string> {
  const colors = new Map<string, string>();
  for (const [id, name] of Object.entries(result.labels)) {
    colors.set(id, groups.find((group) => group.labelNames.includes(name))?.color ?? FALLBACK_COLOR);
  }
  return colors;
}

export const thresholdOf = (result: PredictionResult): number => result.threshold ?? DEFAULT_PREDICTION_THRESHOLD;

/**
 * The cells whose strongest label reaches `threshold` (percent), strongest first: the order "next
 * hotspot" walks. Cells of labels that no positive group names (normal tissue) are left out.
 */
export function overlayCells(
  result: PredictionResult,
  groups: readonly PredictionLabelGroup[],
  threshold: number,
): OverlayCell[] {
  const colors = labelColors(result, groups);
  const normal = new Set(
    Object.entries(result.labels)
      .filter(([, name]) => groups.some((group) => !group.positive && group.labelNames.includes(name)))
      .map(([id]) => id),
  );
  const cells: OverlayCell[] = [];
  for (const [key, labels] of Object.entries(result.cells)) {
    let best: [string, number] | undefined;
    for (const [labelId, probability] of Object.entries(labels)) {
      if (normal.has(labelId)) continue;
      if (!best || probability > best[1]) best = [labelId, probability];
    }
    if (!best || best[1] < threshold) continue;
    const [x, y] = key.split(':').map(Number) as [number, number];
    cells.push({ x, y, probability: best[1], labelId: best[0], color: colors.get(best[0]) ?? FALLBACK_COLOR });
  }
  return cells.sort((a, b) => b.probability - a.probability || a.y - b.y || a.x - b.x);
}

/** The overlay grid of an image (part 2 §9) and where a cell lies in image pixels. */
export function overlayGrid(result: PredictionResult, dimensions: { width: number; height: number }) {
  const size = overlayGridSize(Math.max(dimensions.width, dimensions.height), result.cellSize);
  return {
    size,
    cellRect: (cell: Pick<OverlayCell, 'x' | 'y'>) => ({
      x: cell.x * result.cellSize,
      y: cell.y * result.cellSize,
      width: result.cellSize,
      height: result.cellSize,
    }),
  };
}
