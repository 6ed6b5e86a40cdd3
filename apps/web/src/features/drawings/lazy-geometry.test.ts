import * as contract from '@pathology/contract';
import { compactGeometry, roundGeometry, type CompactDrawing, type Position } from '@pathology/contract';
import { describe, expect, it, vi } from 'vitest';
import { boxOf } from './drawing-geometry.ts';
import { DrawingScene, pathsAtDetail } from './drawing-scene.ts';
import { withLazyGeometry } from './lazy-geometry.ts';
import { simplifyPath } from './simplify-path.ts';
import { testDrawing } from './test-drawing.ts';

vi.mock('@pathology/contract', async (original) => {
  const actual = await original<typeof contract>();
  return { ...actual, expandGeometry: vi.fn(actual.expandGeometry) };
});

/** A lobed outline of `points` points, as the server lists it (encoded). */
function listed(id: string, points: number): { item: CompactDrawing; ring: Position[] } {
  const ring: Position[] = Array.from({ length: points }, (_, i) => {
    const angle = (2 * Math.PI * i) / points;
    const r = 300 * (0.8 + 0.2 * Math.sin(4 * angle));
    return [1000 + r * Math.cos(angle), 2000 + r * Math.sin(angle)];
  });
  const geometry = roundGeometry({ type: 'Polygon', coordinates: [[...ring, ring[0]!]] });
  const item: CompactDrawing = { ...testDrawing(id), geometry: compactGeometry(geometry) };
  return { item, ring: geometry.type === 'Polygon' ? geometry.coordinates[0]! : [] };
}

describe('drawings with lazily decoded geometry', () => {
  it('are indexed and drawn zoomed out without decoding a point into pairs', () => {
    const { item, ring } = listed('a', 400);
    const drawing = withLazyGeometry(item);
    const scene = new DrawingScene();
    scene.reset([drawing]);
    const [entry] = scene.within({ minX: 0, minY: 0, maxX: 5000, maxY: 5000 });
    const zoomedOut = pathsAtDetail(entry!, 4);
    expect(contract.expandGeometry).not.toHaveBeenCalled();

    const expected = { type: 'Polygon' as const, coordinates: [ring] };
    expect({ minX: entry!.minX, minY: entry!.minY, maxX: entry!.maxX, maxY: entry!.maxY }).toEqual(boxOf(expected));
    expect(zoomedOut).toEqual([simplifyPath(ring, 2 ** 3)]);
    expect(zoomedOut[0]!.length).toBeLessThan(ring.length / 4);
  });

  it('decode once when the geometry is read, and give the stored points', () => {
    const { item, ring } = listed('b', 50);
    const drawing = withLazyGeometry(item);
    vi.mocked(contract.expandGeometry).mockClear();
    expect(drawing.geometry).toEqual({ type: 'Polygon', coordinates: [ring] });
    expect(drawing.geometry).toBe(drawing.geometry);
    expect({ ...drawing }.geometry).toEqual({ type: 'Polygon', coordinates: [ring] });
    expect(JSON.parse(JSON.stringify(drawing)).geometry).toEqual({ type: 'Polygon', coordinates: [ring] });
    expect(contract.expandGeometry).toHaveBeenCalledTimes(1);
  });

  it('simplify an outline longer than the decoding buffer first held from its own points', async () => {
    // A fresh module, whose buffer has not grown yet: 20,000 points take far more than its first 16,384 numbers.
    vi.resetModules();
    const fresh = await import('./lazy-geometry.ts');
    const { item, ring } = listed('long', 20_000);
    const encoded = item.geometry.type === 'Polygon' && 'encoded' in item.geometry ? item.geometry.encoded : [];
    expect(encoded[0]!.length).toBeGreaterThan(1 << 14);
    expect(fresh.encodedOutlines(encoded, 8)).toEqual([simplifyPath(ring, 8)]);
  });
});
