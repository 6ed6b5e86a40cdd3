import { describe, expect, it } from 'vitest';
import { detectionTileSource } from './detection-tiles.ts';

describe('detection tile source', () => {
  it('numbers levels as the server does and puts style and version in the URL', () => {
    const source = detectionTileSource('img', 'lay', { width: 40_000, height: 30_000 }, 'v1', {
      hidden: [3, 1],
      fill: 0.35,
      outline: 1,
    });
    expect(source).toMatchObject({ maxLevel: 16, minLevel: 8, tileSize: 512, tileOverlap: 0 });
    expect(source.getTileUrl(16, 2, 3)).toBe(
      '/api/v1/images/img/layers/lay/detections/tiles/16/2/3?hide=1%2C3&fill=0.35&line=1.00&v=v1',
    );
  });
});
