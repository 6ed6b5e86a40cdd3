import { describe, expect, it } from 'vitest';
import { matchesVisibility } from './drawings.queries.ts';

describe('matchesVisibility', () => {
  it('narrows the layer’s drawings as the server’s visibility routes do', () => {
    const drawings = [{ visibility: 'private' as const }, { visibility: 'public' as const }];
    expect(drawings.filter((drawing) => matchesVisibility(drawing, 'ALL'))).toHaveLength(2);
    expect(drawings.filter((drawing) => matchesVisibility(drawing, 'PRIVATE'))).toEqual([{ visibility: 'private' }]);
    expect(drawings.filter((drawing) => matchesVisibility(drawing, 'PUBLIC'))).toEqual([{ visibility: 'public' }]);
  });
});
