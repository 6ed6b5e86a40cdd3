import {
  CreateCaseRequestSchema,
  MAX_TAG_LENGTH,
  MESSAGES,
  UpdateCaseRequestSchema,
  maxLengthMessage,
  type Case,
  type CreateCaseRequest,
  type SpecimenType,
  type UpdateCaseRequest,
} from '@pathology/contract';

/** What the case form edits; texts are '' when empty and become null on the wire. */
export interface CaseFormValues {
  caseNumber: string;
  ownerOrganizationId: string | null;
  intendedOwnerOrganizationId: string | null;
  organ: string | null;
  specimenType: SpecimenType | null;
  diagnosis: string;
  grossFindings: string;
  microscopicFindings: string;
  comments: string;
  tags: string[];
}

export type CaseFormField = keyof CaseFormValues;
export type CaseFormErrors = Partial<Record<CaseFormField, string>>;

export const EMPTY_CASE_FORM: CaseFormValues = {
  caseNumber: '',
  ownerOrganizationId: null,
  intendedOwnerOrganizationId: null,
  organ: null,
  specimenType: null,
  diagnosis: '',
  grossFindings: '',
  microscopicFindings: '',
  comments: '',
  tags: [],
};

export function caseToFormValues(item: Case): CaseFormValues {
  return {
    caseNumber: item.caseNumber,
    ownerOrganizationId: item.ownerOrganizationId,
    intendedOwnerOrganizationId: item.intendedOwnerOrganizationId,
    organ: item.organ,
    specimenType: item.specimenType,
    diagnosis: item.diagnosis ?? '',
    grossFindings: item.grossFindings ?? '',
    microscopicFindings: item.microscopicFindings ?? '',
    comments: item.comments ?? '',
    tags: item.tags,
  };
}

const blankToNull = (text: string): string | null => (text.trim() === '' ? null : text);

const TEXT_FIELDS = ['diagnosis', 'grossFindings', 'microscopicFindings', 'comments'] as const;

/** POST cases body; the slide provider is sent only by super users (the server ignores it from others). */
export function toCreateRequest(values: CaseFormValues, isSuperUser: boolean): CreateCaseRequest {
  return {
    caseNumber: values.caseNumber,
    ownerOrganizationId: values.ownerOrganizationId ?? '',
    ...(isSuperUser ? { intendedOwnerOrganizationId: values.intendedOwnerOrganizationId } : {}),
    organ: values.organ,
    specimenType: values.specimenType,
    diagnosis: blankToNull(values.diagnosis),
    grossFindings: blankToNull(values.grossFindings),
    microscopicFindings: blankToNull(values.microscopicFindings),
    comments: blankToNull(values.comments),
    tags: values.tags,
  };
}

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/** PATCH cases/{id} merge-patch: only what changed; cleared texts are sent as null. */
export function toUpdateRequest(values: CaseFormValues, original: Case, isSuperUser: boolean): UpdateCaseRequest {
  const changes: UpdateCaseRequest = {};
  if (values.caseNumber !== original.caseNumber) changes.caseNumber = values.caseNumber;
  if (values.organ !== original.organ) changes.organ = values.organ;
  if (values.specimenType !== original.specimenType) changes.specimenType = values.specimenType;
  for (const field of TEXT_FIELDS) {
    const value = blankToNull(values[field]);
    if (value !== original[field]) changes[field] = value;
  }
  if (!sameTags(values.tags, original.tags)) changes.tags = values.tags;
  if (isSuperUser && values.intendedOwnerOrganizationId !== original.intendedOwnerOrganizationId) {
    changes.intendedOwnerOrganizationId = values.intendedOwnerOrganizationId;
  }
  return changes;
}

/** The message of the first issue per field (tags: any tag's issue), in the contract's wording. */
function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): CaseFormErrors {
  const errors: CaseFormErrors = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && field in EMPTY_CASE_FORM && errors[field as CaseFormField] === undefined) {
      errors[field as CaseFormField] = issue.message;
    }
  }
  return errors;
}

/** Client-side checks of the create form, with the contract's schema; super users must pick a slide provider. */
export function validateCreate(values: CaseFormValues, isSuperUser: boolean): CaseFormErrors {
  const result = CreateCaseRequestSchema.safeParse(toCreateRequest(values, isSuperUser));
  const errors = result.success ? {} : fieldErrors(result.error.issues);
  if (values.ownerOrganizationId == null) errors.ownerOrganizationId = MESSAGES.fieldRequired;
  if (isSuperUser && values.intendedOwnerOrganizationId == null) {
    errors.intendedOwnerOrganizationId = MESSAGES.fieldRequired;
  }
  return errors;
}

/** Client-side checks of the edit form: the fields the form shows, with the contract's update schema. */
export function validateUpdate(values: CaseFormValues): CaseFormErrors {
  const request: UpdateCaseRequest = { ...toCreateRequest(values, true) };
  // The edit form does not move the case (Transfer does), so the owner group is not checked here.
  delete request.ownerOrganizationId;
  const result = UpdateCaseRequestSchema.safeParse(request);
  return result.success ? {} : fieldErrors(result.error.issues);
}

export function hasErrors(errors: CaseFormErrors): boolean {
  return Object.values(errors).some((message) => message !== undefined);
}

/** The tag limit's message, to translate it. */
export const TAG_TOO_LONG_MESSAGE = maxLengthMessage(MAX_TAG_LENGTH);

/**
 * Server field errors (422 `errors`) on the form's fields: `tags.3` or `tags[3]` is the tags field. Messages of fields
 * the form does not show are returned apart, for the banner.
 */
export function serverFieldErrors(errors: Readonly<Record<string, string>>): {
  fields: CaseFormErrors;
  other: string[];
} {
  const fields: CaseFormErrors = {};
  const other: string[] = [];
  for (const [key, message] of Object.entries(errors)) {
    const field = key.split(/[.[]/)[0] ?? key;
    if (field in EMPTY_CASE_FORM) fields[field as CaseFormField] ??= message;
    else other.push(message);
  }
  return { fields, other };
}
