import type { Image } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { secondPriorityFields, sortImages } from './image-order.ts';

const image = (id: string, displayName: string, organ: string | null, createdAt: string) =>
  ({ id, displayName, filename: `${displayName}.svs`, organ, createdAt }) as Image;

const images = [
  image('1', 'Slide 10', 'Liver', '2026-01-03T00:00:00Z'),
  image('2', 'Slide 2', 'Colon', '2026-01-01T00:00:00Z'),
  image('3', 'Slide 1', 'Liver', '2026-01-02T00:00:00Z'),
  image('4', 'Slide 3', null, '2026-01-04T00:00:00Z'),
];
const ids = (sorted: Image[]) => sorted.map((one) => one.id);

describe('sortImages', () => {
  it('orders by name as people count (Slide 2 before Slide 10)', () => {
    expect(ids(sortImages(images, { order: { field: 'displayName', direction: 'asc' }, thenBy: null }))).toEqual([
      '3',
      '2',
      '4',
      '1',
    ]);
  });

  it('uses the second priority among equals of the first, and keeps images without an organ last', () => {
    const setting = {
      order: { field: 'organ', direction: 'desc' },
      thenBy: { field: 'createdAt', direction: 'desc' },
    } as const;
    expect(ids(sortImages(images, setting))).toEqual(['1', '3', '2', '4']);
    const ascending = {
      order: { field: 'organ', direction: 'asc' },
      thenBy: { field: 'createdAt', direction: 'asc' },
    } as const;
    expect(ids(sortImages(images, ascending))).toEqual(['2', '3', '1', '4']);
  });

  it('never offers the first field again for the second priority', () => {
    expect(secondPriorityFields('organ', ['displayName', 'filename', 'createdAt', 'organ'])).toEqual([
      'displayName',
      'filename',
      'createdAt',
    ]);
  });
});
