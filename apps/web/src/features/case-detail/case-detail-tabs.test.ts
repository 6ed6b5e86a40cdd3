import { describe, expect, it } from 'vitest';
import { caseDetailSubPath, readCaseDetailPath } from './case-detail-tabs.ts';

describe('case detail sub-paths', () => {
  it('select the tab', () => {
    expect(readCaseDetailPath(undefined)).toEqual({ tab: 'details', editing: false });
    expect(readCaseDetailPath('edit')).toEqual({ tab: 'details', editing: true });
    expect(readCaseDetailPath('comments/')).toEqual({ tab: 'comments', editing: false });
    expect(readCaseDetailPath('permissions')).toEqual({ tab: 'permissions', editing: false });
    expect(readCaseDetailPath('nope')).toBeUndefined();
  });

  it('round-trip', () => {
    expect(caseDetailSubPath('details', true)).toBe('/edit');
    expect(caseDetailSubPath('details')).toBe('');
    expect(readCaseDetailPath(caseDetailSubPath('images').slice(1))).toEqual({ tab: 'images', editing: false });
  });
});
