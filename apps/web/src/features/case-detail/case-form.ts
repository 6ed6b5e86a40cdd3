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
import { z } from 'zod';
import { blankToNull } from '../../lib/blank-to-null.ts';

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

const { shape: createShape } = CreateCaseRequestSchema;
const { shape: updateShape } = UpdateCaseRequestSchema;

/** A form text ('' when empty) checked as the contract's text field, blank becoming null. */
const formText = (field: typeof createShape.diagnosis) => z.string().transform(blankToNull).pipe(field.unwrap());

/** The fields both forms show, with the contract's rules (the update request's, which the create request shares). */
const caseFieldsShape = {
  caseNumber: updateShape.caseNumber.unwrap(),
  organ: updateShape.organ.unwrap(),
  specimenType: updateShape.specimenType.unwrap(),
  diagnosis: formText(updateShape.diagnosis),
  grossFindings: formText(updateShape.grossFindings),
  microscopicFindings: formText(updateShape.microscopicFindings),
  comments: formText(updateShape.comments),
  tags: updateShape.tags.unwrap().unwrap(),
};

const slideProvider = createShape.intendedOwnerOrganizationId.unwrap();

/**
 * The create form's schema: the contract's create rules on the form's values (no group chosen yet is null). Super
 * users must pick a slide provider.
 */
export function createCaseFormSchema(isSuperUser: boolean) {
  return z.object({
    ...caseFieldsShape,
    ownerOrganizationId: z.string().nullable().pipe(createShape.ownerOrganizationId),
    intendedOwnerOrganizationId: isSuperUser
      ? slideProvider.refine((id) => id !== null, MESSAGES.fieldRequired)
      : slideProvider,
  });
}
export type CreateCaseFormOutput = z.output<ReturnType<typeof createCaseFormSchema>>;

/** The edit form's schema; the edit form does not move the case (Transfer does), so the owner group is not checked. */
export const updateCaseFormSchema = z.object({
  ...caseFieldsShape,
  ownerOrganizationId: z.string().nullable(),
  intendedOwnerOrganizationId: updateShape.intendedOwnerOrganizationId.unwrap(),
});
export type UpdateCaseFormOutput = z.output<typeof updateCaseFormSchema>;

/** POST cases body; the slide provider is sent only by super users (the server ignores it from others). */
export function toCreateRequest(values: CreateCaseFormOutput, isSuperUser: boolean): CreateCaseRequest {
  const { intendedOwnerOrganizationId, ...rest } = values;
  return { ...rest, ...(isSuperUser ? { intendedOwnerOrganizationId } : {}) };
}

const TEXT_FIELDS = ['diagnosis', 'grossFindings', 'microscopicFindings', 'comments'] as const;

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/** PATCH cases/{id} merge-patch: only what changed; cleared texts are sent as null. */
export function toUpdateRequest(values: UpdateCaseFormOutput, original: Case, isSuperUser: boolean): UpdateCaseRequest {
  const changes: UpdateCaseRequest = {};
  if (values.caseNumber !== original.caseNumber) changes.caseNumber = values.caseNumber;
  if (values.organ !== original.organ) changes.organ = values.organ;
  if (values.specimenType !== original.specimenType) changes.specimenType = values.specimenType;
  for (const field of TEXT_FIELDS) {
    if (values[field] !== original[field]) changes[field] = values[field];
  }
  if (!sameTags(values.tags, original.tags)) changes.tags = values.tags;
  if (isSuperUser && values.intendedOwnerOrganizationId !== original.intendedOwnerOrganizationId) {
    changes.intendedOwnerOrganizationId = values.intendedOwnerOrganizationId;
  }
  return changes;
}

/** The tag limit's message, to translate it. */
export const TAG_TOO_LONG_MESSAGE = maxLengthMessage(MAX_TAG_LENGTH);

interface ErrorLike {
  message?: unknown;
}

/**
 * A field's message from react-hook-form's errors: the field's own, or (tags) the first tag's, in the contract's
 * wording.
 */
export function firstErrorMessage(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const own = (error as ErrorLike).message;
  if (typeof own === 'string') return own;
  for (const [key, entry] of Object.entries(error)) {
    if (key === 'ref' || typeof entry !== 'object' || entry === null) continue;
    const message = (entry as ErrorLike).message;
    if (typeof message === 'string') return message;
  }
  return undefined;
}

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
