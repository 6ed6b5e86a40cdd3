import { describe, expect, it } from 'vitest';
import { HttpError, ValidationError } from '../../api/client.ts';
import { caseLookupDelay, lookupMatch, retryCaseLookup } from './case-lookup.ts';
import { canSubmit, initialDialogState } from './upload-dialog.state.ts';

const found = { id: 'c1', caseNumber: 'S-1', filenames: [], imageCount: 0 };

describe('the case picker lookup', () => {
  it('takes the found case, or a new one only once the group was asked and answered', () => {
    const answer = { text: 'S-1', debounced: 'S-1', settled: true, failed: false };
    expect(lookupMatch({ ...answer, found })).toBe(found);
    expect(lookupMatch({ ...answer, found: null })).toBeNull();
    expect(lookupMatch({ ...answer, debounced: 'S-', found: null })).toBeUndefined();
    expect(lookupMatch({ ...answer, settled: false, found: undefined })).toBeUndefined();
  });

  it('leaves the number unknown, and Upload disabled, when the lookup failed', () => {
    const match = lookupMatch({ text: 'S-1', debounced: 'S-1', settled: false, failed: true, found: undefined });
    expect(match).toBeUndefined();
    const state = initialDialogState();
    const file = new File(['x'], 'slide.svs');
    const draft = { ...state.cases[0]!, caseNumber: 'S-1', match };
    const withFile = {
      ...state,
      cases: [draft],
      files: [
        {
          key: 'f1',
          caseKey: draft.key,
          file,
          displayName: 'slide',
          supported: true,
          kinds: ['image'] as const,
          kind: 'image' as const,
        },
      ],
    };
    expect(canSubmit(withFile, 100)).toBe(false);
    expect(canSubmit({ ...withFile, cases: [{ ...draft, match: null }] }, 100)).toBe(true);
  });

  it('asks again after failures that may pass, a few times, and not after a refusal', () => {
    expect(retryCaseLookup(1, new HttpError('busy', 503, null))).toBe(true);
    expect(retryCaseLookup(5, new HttpError('busy', 503, null))).toBe(false);
    expect(retryCaseLookup(1, new ValidationError('Validation failed', {}, 422))).toBe(false);
    expect([0, 1, 2, 3, 4].map(caseLookupDelay)).toEqual([500, 1000, 2000, 4000, 4000]);
  });
});
