import { describe, expect, it } from 'vitest';
import { caseImagesPath, imageNeighbours, viewerPath } from './viewer-paths.ts';

describe('viewerPath', () => {
  it('puts v2 at images/{id} and v1 under it, keeping the search', () => {
    expect(viewerPath('c1', 'i1', 'v2')).toBe('/cases/c1/images/i1');
    expect(viewerPath('c1', 'i1', 'v1', '?from=x')).toBe('/cases/c1/images/i1/v1?from=x');
    expect(caseImagesPath('c 1', '?index=2')).toBe('/cases/c%201/images?index=2');
  });
});

describe('imageNeighbours', () => {
  const images = [
    { id: 'a', viewable: true },
    { id: 'b', viewable: false },
    // Still converting, served from its original meanwhile.
    { id: 'c', viewable: true },
    { id: 'd', viewable: true },
  ];

  it('skips images that cannot be viewed', () => {
    expect(imageNeighbours(images, 'c')).toEqual({ previous: images[0], next: images[3], position: 2, total: 3 });
  });

  it('does not wrap around at the ends', () => {
    expect(imageNeighbours(images, 'a')).toEqual({ previous: undefined, next: images[2], position: 1, total: 3 });
    expect(imageNeighbours(images, 'd')).toEqual({ previous: images[2], next: undefined, position: 3, total: 3 });
  });

  it('has no neighbours for an image outside the list', () => {
    expect(imageNeighbours(images, 'b')).toEqual({ position: 0, total: 3 });
  });
});
