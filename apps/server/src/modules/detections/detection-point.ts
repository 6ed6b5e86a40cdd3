type Ring = [number, number][];

/** Even-odd rule: inside when a ray from the point crosses the rings an odd number of times (holes included). */
function insideRings(rings: readonly Ring[], x: number, y: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** The first of the candidates (smallest first) whose Polygon or MultiPolygon holds the point. */
export function objectAtPoint<T extends { geometry: string }>(candidates: readonly T[], x: number, y: number) {
  return candidates.find((candidate) => {
    const geometry = JSON.parse(candidate.geometry) as { type: string; coordinates: unknown };
    const polygons = (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates) as Ring[][];
    return polygons.some((rings) => insideRings(rings, x, y));
  });
}
