import { MESSAGES, type Case } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_CASE_FORM,
  TAG_TOO_LONG_MESSAGE,
  caseToFormValues,
  serverFieldErrors,
  toUpdateRequest,
  validateCreate,
  validateUpdate,
} from './case-form.ts';

const ORG = '6f1c1e3a-1b2c-4d5e-8f90-1234567890ab';

const existing = {
  caseNumber: 'S26-1',
  ownerOrganizationId: ORG,
  intendedOwnerOrganizationId: null,
  organ: 'Colon',
  specimenType: 'biopsy',
  diagnosis: 'Adenoma',
  grossFindings: null,
  microscopicFindings: null,
  comments: 'note',
  tags: ['a'],
} as unknown as Case;

describe('case form', () => {
  it('requires a case number and a group, and a slide provider from super users', () => {
    expect(validateCreate(EMPTY_CASE_FORM, false)).toEqual({
      caseNumber: MESSAGES.fieldRequired,
      ownerOrganizationId: MESSAGES.fieldRequired,
    });
    expect(validateCreate({ ...EMPTY_CASE_FORM, caseNumber: 'X', ownerOrganizationId: ORG }, true)).toEqual({
      intendedOwnerOrganizationId: MESSAGES.fieldRequired,
    });
    expect(validateCreate({ ...EMPTY_CASE_FORM, caseNumber: 'X', ownerOrganizationId: ORG }, false)).toEqual({});
  });

  it('limits each tag to 200 characters', () => {
    const values = { ...caseToFormValues(existing), tags: ['ok', 'x'.repeat(201)] };
    expect(validateUpdate(values)).toEqual({ tags: TAG_TOO_LONG_MESSAGE });
    expect(TAG_TOO_LONG_MESSAGE).toBe('This field must be at most 200 characters');
    expect(validateUpdate({ ...values, tags: ['x'.repeat(200)] })).toEqual({});
  });

  it('sends only what changed, blanks as null', () => {
    const values = { ...caseToFormValues(existing), diagnosis: '  ', tags: ['a', 'b'], grossFindings: 'firm' };
    expect(toUpdateRequest(values, existing, false)).toEqual({
      diagnosis: null,
      grossFindings: 'firm',
      tags: ['a', 'b'],
    });
    expect(toUpdateRequest(caseToFormValues(existing), existing, false)).toEqual({});
  });

  it('sends the slide provider only for super users', () => {
    const values = { ...caseToFormValues(existing), intendedOwnerOrganizationId: ORG };
    expect(toUpdateRequest(values, existing, false)).toEqual({});
    expect(toUpdateRequest(values, existing, true)).toEqual({ intendedOwnerOrganizationId: ORG });
  });
});

describe('server field errors', () => {
  it('land on the form fields, the rest apart', () => {
    expect(serverFieldErrors({ caseNumber: 'Taken', 'tags.1': 'Too long', isPublic: 'No' })).toEqual({
      fields: { caseNumber: 'Taken', tags: 'Too long' },
      other: ['No'],
    });
  });
});
