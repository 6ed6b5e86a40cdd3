import type { Drawing } from '@pathology/contract';

/** A drawing for the viewer's tests: a public grey polygon on one image's layer, unless `overrides` say otherwise. */
export function testDrawing(id: string, overrides: Partial<Drawing> = {}): Drawing {
  return {
    id,
    imageId: 'image',
    imageLayerId: 'layer',
    authorAccountId: null,
    authorName: null,
    visibility: 'public',
    title: '',
    shapeType: 'polygon',
    geometry: { type: 'Polygon', coordinates: [] },
    style: { lineWidth: 2, lineColor: '#868e96' },
    createdAt: '',
    updatedAt: '',
    editable: false,
    ...overrides,
  };
}
