import { z } from 'zod';
import { MAX_TAG_LENGTH, SpecimenTypeSchema } from '../domain/cases.ts';
import { ImageStatusSchema } from '../domain/images.ts';
import { CaseCapabilitiesSchema } from './capabilities.ts';
import { MESSAGES } from './errors.ts';

/** "This field must be at most 200 characters": the catalogue's message with its limit filled in. */
export function maxLengthMessage(max: number): string {
  return MESSAGES.fieldMaxLength.replace('${max}', String(max));
}

/** Missing and null both read "This field is required"; other problems keep zod's own message. */
export const requiredError = {
  error: (issue: { input?: unknown }) => (issue.input == null ? MESSAGES.fieldRequired : undefined),
};

/** A case number: required; surrounding blanks are dropped, so only blanks counts as empty. */
export const CaseNumberSchema = z.string(requiredError).trim().min(1, MESSAGES.fieldRequired);

/** One tag of a case: not blank, at most MAX_TAG_LENGTH characters. */
export const CaseTagSchema = z
  .string()
  .trim()
  .min(1, MESSAGES.fieldRequired)
  .max(MAX_TAG_LENGTH, maxLengthMessage(MAX_TAG_LENGTH));

/** Free text of a case; blank is stored as null. */
const CaseTextSchema = z.string().nullable();

/** POST cases. Field problems come back as 422 `{ message, errors: { field: message } }`. */
export const CreateCaseRequestSchema = z.object({
  caseNumber: CaseNumberSchema,
  /** The owner group: one where the caller may create cases. */
  ownerOrganizationId: z.uuid(requiredError),
  /**
   * The slide provider group. Required from super users (any group); ignored from everyone else,
   * who are never shown it.
   */
  intendedOwnerOrganizationId: z.uuid().nullable().optional(),
  organ: CaseTextSchema.optional(),
  specimenType: SpecimenTypeSchema.nullable().optional(),
  diagnosis: CaseTextSchema.optional(),
  grossFindings: CaseTextSchema.optional(),
  microscopicFindings: CaseTextSchema.optional(),
  /** Free notes on the case (not the comment thread). */
  comments: CaseTextSchema.optional(),
  tags: z.array(CaseTagSchema).optional(),
  isPublic: z.boolean().optional(),
});
export type CreateCaseRequest = z.input<typeof CreateCaseRequestSchema>;

/**
 * PATCH cases/{id} (application/merge-patch+json): only the members sent change; null clears a
 * text field (and empties tags). A different ownerOrganizationId moves the case, with the rules of
 * a transfer. intendedOwnerOrganizationId is ignored unless the caller is a super user.
 */
export const UpdateCaseRequestSchema = z.object({
  caseNumber: CaseNumberSchema.optional(),
  ownerOrganizationId: z.uuid(requiredError).optional(),
  intendedOwnerOrganizationId: z.uuid().nullable().optional(),
  organ: CaseTextSchema.optional(),
  specimenType: SpecimenTypeSchema.nullable().optional(),
  diagnosis: CaseTextSchema.optional(),
  grossFindings: CaseTextSchema.optional(),
  microscopicFindings: CaseTextSchema.optional(),
  comments: CaseTextSchema.optional(),
  tags: z.array(CaseTagSchema).nullable().optional(),
  isPublic: z.boolean().optional(),
});
export type UpdateCaseRequest = z.input<typeof UpdateCaseRequestSchema>;

/** A case as the detail screen shows it (GET cases/{id}); images and attachments have their own lists. */
export const CaseSchema = z.object({
  id: z.uuid(),
  caseNumber: z.string(),
  /** The owner group (same as ownerOrganizationId). */
  organizationId: z.uuid(),
  ownerOrganizationId: z.uuid(),
  organizationName: z.string(),
  contractId: z.uuid(),
  contractName: z.string(),
  /** The slide provider group; null unless the caller is a super user. */
  intendedOwnerOrganizationId: z.uuid().nullable(),
  organ: z.string().nullable(),
  specimenType: SpecimenTypeSchema.nullable(),
  diagnosis: z.string().nullable(),
  grossFindings: z.string().nullable(),
  microscopicFindings: z.string().nullable(),
  /** Free notes on the case (not the comment thread). */
  comments: z.string().nullable(),
  tags: z.array(z.string()),
  isPublic: z.boolean(),
  numberOfImages: z.number(),
  numberOfAttachments: z.number(),
  numberOfComments: z.number(),
  /** Images per status, every status present (0 when none); same shape as a case-list row. */
  imageStatusCounts: z.record(ImageStatusSchema, z.number()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  userCapabilities: CaseCapabilitiesSchema,
});
export type Case = z.infer<typeof CaseSchema>;

export const DeleteCaseQuerySchema = z.object({
  /**
   * Also delete the case's images, attachments and comments. Without it a case that has any
   * answers 409 with their counts.
   */
  recursive: z.enum(['true', 'false']).optional(),
});

/** Most cases one bulk transfer may move (one transaction). */
export const MAX_BULK_TRANSFER_CASES = 500;

/** PUT cases/transfer/multiple/{orgId}: moves all the cases or none. */
export const TransferCasesRequestSchema = z.object({
  cases: z.array(z.uuid()).min(1, MESSAGES.fieldRequired).max(MAX_BULK_TRANSFER_CASES),
  /** The group the cases were picked from: every case must still belong to it (else 409). */
  organizationId: z.uuid(requiredError),
});
export type TransferCasesRequest = z.input<typeof TransferCasesRequestSchema>;

export const CaseListSchema = z.object({ data: z.array(CaseSchema), total: z.number() });
export type CaseList = z.infer<typeof CaseListSchema>;
