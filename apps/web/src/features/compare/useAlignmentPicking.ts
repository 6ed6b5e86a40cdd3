import { MAX_ALIGNMENT_POINTS } from '@pathology/contract';
import { useEffect, useState } from 'react';
import { pickPoints } from './point-markers.ts';
import { addPick, canPick, type PickedPair, type PickSide } from './point-picking.ts';
import type { ViewerLink } from './viewer-link.ts';

export interface Aligning {
  other: number;
  pairs: PickedPair[];
}

/** What the last click while aligning did, so a click that placed nothing never goes unanswered. */
export type PickStatus =
  | { kind: 'placed'; pane: number; number: number }
  | { kind: 'outside'; pane: number }
  | { kind: 'full'; pane: number }
  | { kind: 'notAligned'; pane: number }
  | { kind: 'missed' };

/**
 * Point alignment's clicks: on the first slide and the one being aligned they place numbered points (on the image
 * only); on any other slide, outside an image or past the last point they place nothing and say so.
 */
export function useAlignmentPicking(
  link: ViewerLink,
  paneCount: number,
  aligning: Aligning | null,
  setAligning: (aligning: Aligning) => void,
  readyKey: string,
) {
  const [status, setStatus] = useState<PickStatus | null>(null);
  const active = aligning !== null;
  const other = aligning?.other;
  useEffect(() => setStatus(null), [active, other]);

  useEffect(() => {
    if (!aligning) return undefined;
    const sides = new Map<number, PickSide>([
      [0, 'reference'],
      [aligning.other, 'other'],
    ]);
    const cleanups = Array.from({ length: paneCount }, (_, pane) => {
      const viewer = link.viewer(pane);
      if (!viewer) return undefined;
      const side = sides.get(pane);
      if (!side) {
        const onClick = (event: { quick: boolean }) => event.quick && setStatus({ kind: 'notAligned', pane });
        viewer.addHandler('canvas-click', onClick);
        return () => viewer.removeHandler('canvas-click', onClick);
      }
      const points = aligning.pairs.map((pair) => pair[side]);
      return pickPoints(viewer, points, (point, inside) => {
        if (!inside) return setStatus({ kind: 'outside', pane });
        if (!canPick(aligning.pairs, side, MAX_ALIGNMENT_POINTS)) return setStatus({ kind: 'full', pane });
        const pairs = addPick(aligning.pairs, side, point, MAX_ALIGNMENT_POINTS);
        setAligning({ ...aligning, pairs });
        setStatus({ kind: 'placed', pane, number: pairs.findIndex((pair, at) => pair !== aligning.pairs[at]) + 1 });
      });
    });
    return () => cleanups.forEach((cleanup) => cleanup?.());
  }, [aligning, link, paneCount, readyKey, setAligning]);

  return { status, missed: () => setStatus({ kind: 'missed' }) };
}
