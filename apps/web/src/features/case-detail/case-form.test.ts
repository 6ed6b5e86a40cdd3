import { MESSAGES, type Case } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_CASE_FORM,
  TAG_TOO_LONG_MESSAGE,
  caseToFormValues,
  createCaseFormSchema,
  firstErrorMessage,
  serverFieldErrors,
  toCreateRequest,
  toUpdateRequest,
  updateCaseFormSchema,
  type CaseFormValues,
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

/** The first message per field, as the form shows them. */
function errorsOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const errors: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

const parseUpdate = (values: CaseFormValues) => updateCaseFormSchema.parse(values);

describe('case form schemas', () => {
  it('require a case number and a group, and a slide provider from super users', () => {
    expect(errorsOf(createCaseFormSchema(false).safeParse(EMPTY_CASE_FORM))).toEqual({
      caseNumber: MESSAGES.fieldRequired,
      ownerOrganizationId: MESSAGES.fieldRequired,
    });
    const filled = { ...EMPTY_CASE_FORM, caseNumber: 'X', ownerOrganizationId: ORG };
    expect(errorsOf(createCaseFormSchema(true).safeParse(filled))).toEqual({
      intendedOwnerOrganizationId: MESSAGES.fieldRequired,
    });
    expect(createCaseFormSchema(false).safeParse(filled).success).toBe(true);
    expect(errorsOf(updateCaseFormSchema.safeParse({ ...caseToFormValues(existing), caseNumber: '  ' }))).toEqual({
      caseNumber: MESSAGES.fieldRequired,
    });
  });

  it('limit each tag to 200 characters', () => {
    const values = { ...caseToFormValues(existing), tags: ['ok', 'x'.repeat(201)] };
    const result = updateCaseFormSchema.safeParse(values);
    expect(errorsOf(result)).toEqual({ tags: TAG_TOO_LONG_MESSAGE });
    expect(result.error?.issues[0]?.path).toEqual(['tags', 1]);
    expect(TAG_TOO_LONG_MESSAGE).toBe('This field must be at most 200 characters');
    expect(updateCaseFormSchema.safeParse({ ...values, tags: ['x'.repeat(200)] }).success).toBe(true);
  });

  it('turn blank texts into null', () => {
    const parsed = parseUpdate({ ...caseToFormValues(existing), diagnosis: '  ', comments: '' });
    expect(parsed.diagnosis).toBeNull();
    expect(parsed.comments).toBeNull();
    expect(parsed.grossFindings).toBeNull();
  });
});

describe('case requests', () => {
  it('create: the slide provider only from super users', () => {
    const values = createCaseFormSchema(true).parse({
      ...EMPTY_CASE_FORM,
      caseNumber: 'X',
      ownerOrganizationId: ORG,
      intendedOwnerOrganizationId: ORG,
      diagnosis: ' ',
      tags: ['t'],
    });
    expect(toCreateRequest(values, true)).toEqual({
      caseNumber: 'X',
      ownerOrganizationId: ORG,
      intendedOwnerOrganizationId: ORG,
      organ: null,
      specimenType: null,
      diagnosis: null,
      grossFindings: null,
      microscopicFindings: null,
      comments: null,
      tags: ['t'],
    });
    expect(toCreateRequest(values, false)).not.toHaveProperty('intendedOwnerOrganizationId');
  });

  it('update: sends only what changed, blanks as null', () => {
    const values = parseUpdate({
      ...caseToFormValues(existing),
      diagnosis: '  ',
      tags: ['a', 'b'],
      grossFindings: 'firm',
    });
    expect(toUpdateRequest(values, existing, false)).toEqual({
      diagnosis: null,
      grossFindings: 'firm',
      tags: ['a', 'b'],
    });
    expect(toUpdateRequest(parseUpdate(caseToFormValues(existing)), existing, false)).toEqual({});
  });

  it('update: sends the slide provider only for super users', () => {
    const values = parseUpdate({ ...caseToFormValues(existing), intendedOwnerOrganizationId: ORG });
    expect(toUpdateRequest(values, existing, false)).toEqual({});
    expect(toUpdateRequest(values, existing, true)).toEqual({ intendedOwnerOrganizationId: ORG });
  });
});

describe('form errors', () => {
  it("read a field's message, or the first tag's", () => {
    expect(firstErrorMessage(undefined)).toBeUndefined();
    expect(firstErrorMessage({ type: 'server', message: 'Taken' })).toBe('Taken');
    expect(firstErrorMessage([undefined, { type: 'too_big', message: TAG_TOO_LONG_MESSAGE }])).toBe(
      TAG_TOO_LONG_MESSAGE,
    );
  });

  it('from the server land on the form fields, the rest apart', () => {
    expect(serverFieldErrors({ caseNumber: 'Taken', 'tags.1': 'Too long', isPublic: 'No' })).toEqual({
      fields: { caseNumber: 'Taken', tags: 'Too long' },
      other: ['No'],
    });
  });
});
