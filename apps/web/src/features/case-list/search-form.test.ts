import { describe, expect, it } from 'vitest';
import { EMPTY_SEARCH_FORM, formToQuery, queryToForm, replaceSearchFields, withCaseNumber } from './search-form.ts';

const ORG = '11111111-1111-4111-8111-111111111111';

describe('search form', () => {
  it('turns wildcards into whole-text matches and other text into contains; drops empty values', () => {
    const query = formToQuery({ ...EMPTY_SEARCH_FORM, caseNumber: ' S26-* ', diagnosis: 'carcinoma', comments: '  ' });
    expect(query).toEqual([
      { field: 'caseNumber', operator: 'is', value: 'S26-*' },
      { field: 'diagnosis', operator: 'is-like', value: 'carcinoma' },
    ]);
  });

  it('splits tags at commas and applies the match mode only from two tags', () => {
    expect(formToQuery({ ...EMPTY_SEARCH_FORM, tags: ['teaching, consult'], tagsMatch: 'contains-any' })).toEqual([
      { field: 'tags', operator: 'contains-any', value: ['teaching', 'consult'] },
    ]);
    expect(formToQuery({ ...EMPTY_SEARCH_FORM, tags: ['teaching'], tagsMatch: 'contains-any' })).toEqual([
      { field: 'tags', operator: 'contains-all', value: ['teaching'] },
    ]);
  });

  it('round-trips through the query and keeps the group when replacing', () => {
    const values = {
      ...EMPTY_SEARCH_FORM,
      caseNumber: 'S26-*',
      tags: ['a', 'b'],
      tagsMatch: 'contains-any' as const,
      organ: 'Breast',
      imageTags: ['HE'],
    };
    expect(queryToForm(formToQuery(values))).toEqual(values);
    const group = { field: 'organizationId' as const, operator: 'is' as const, value: ORG };
    expect(replaceSearchFields([group, { field: 'diagnosis', operator: 'is-like', value: 'x' }], values)[0]).toEqual(
      group,
    );
    expect(replaceSearchFields([group], EMPTY_SEARCH_FORM)).toEqual([group]);
  });

  it('replaces only the case number for the table filter', () => {
    const query = withCaseNumber(
      [
        { field: 'caseNumber', operator: 'is-like', value: 'old' },
        { field: 'organ', operator: 'is', value: 'Lung' },
      ],
      'B26',
    );
    expect(query).toEqual([
      { field: 'organ', operator: 'is', value: 'Lung' },
      { field: 'caseNumber', operator: 'is-like', value: 'B26' },
    ]);
    expect(withCaseNumber(query, '')).toEqual([{ field: 'organ', operator: 'is', value: 'Lung' }]);
  });
});
