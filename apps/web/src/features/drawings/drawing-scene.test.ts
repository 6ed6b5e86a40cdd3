import type { Drawing, Position } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { DrawingScene, pathsAtDetail } from './drawing-scene.ts';
import { testDrawing } from './test-drawing.ts';

function polygon(id: string, x: number, size: number, points = 4): Drawing {
  const ring: Position[] = Array.from({ length: points }, (_, i) => {
    const angle = (2 * Math.PI * i) / points;
    return [x + size * Math.cos(angle), size * Math.sin(angle)];
  });
  return testDrawing(id, { geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!]] } });
}

describe('drawing scene', () => {
  it('finds the drawings in a box and picks the smallest under a point', () => {
    const scene = new DrawingScene();
    scene.reset([polygon('big', 0, 100), polygon('small', 10, 5), polygon('far', 1000, 10)]);
    expect(
      scene
        .within({ minX: -200, minY: -200, maxX: 200, maxY: 200 })
        .map((e) => e.drawing.id)
        .sort(),
    ).toEqual(['big', 'small']);
    expect(scene.hit([10, 0], 1)?.id).toBe('small');
    expect(scene.hit([50, 50], 1)?.id).toBe('big');
    expect(scene.hit([500, 500], 1)).toBeUndefined();
    scene.remove('small');
    expect(scene.hit([10, 0], 1)?.id).toBe('big');
  });

  it('draws a 500-point outline with far fewer points when zoomed out, and all of them up close', () => {
    const scene = new DrawingScene();
    scene.put(polygon('round', 0, 200, 500));
    const [entry] = scene.within({ minX: -300, minY: -300, maxX: 300, maxY: 300 });
    expect(pathsAtDetail(entry!, 0.5)[0]).toHaveLength(501);
    const far = pathsAtDetail(entry!, 16)[0]!;
    expect(far.length).toBeLessThan(40);
    expect(pathsAtDetail(entry!, 16)).toBe(pathsAtDetail(entry!, 17));
  });
});
