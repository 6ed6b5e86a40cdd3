import { z } from 'zod';
import { MembershipSummarySchema } from './accounts.ts';
import { OrganizationCapabilitiesSchema } from './capabilities.ts';
import { maxLengthMessage, requiredError } from './cases.ts';
import { MESSAGES } from './errors.ts';

/** Storage limits are set in GB (part 3 §3) and shown with one decimal: decimal gigabytes, as disks are sold. */
export const BYTES_PER_GB = 1_000_000_000;

/** "12.3 GB": storage use and limits as part 3 §9 shows them. */
export function formatGigabytes(bytes: number, locale?: string): string {
  const value = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return `${value.format(bytes / BYTES_PER_GB)} GB`;
}

export const MAX_ORGANIZATION_NAME = 200;
export const MAX_ORGANIZATION_TEXT = 1000;

/** A group as listed (GET organizations), with what the caller may do in it. */
export const OrganizationSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  contractId: z.uuid(),
  contractName: z.string(),
  predictionEnabled: z.boolean(),
  downloadDrawingsEnabled: z.boolean(),
  /** Members of this group are not asked to agree to the AI-use statement (part 2 §4). */
  aiAgreementSkipped: z.boolean(),
  /** The provider's own group (special badge). */
  isProvider: z.boolean(),
  userCapabilities: OrganizationCapabilitiesSchema,
});
export type OrganizationSummary = z.infer<typeof OrganizationSummarySchema>;

export const OrganizationListSchema = z.object({ data: z.array(OrganizationSummarySchema), total: z.number() });
export type OrganizationList = z.infer<typeof OrganizationListSchema>;

const optionalText = z.string().trim().max(MAX_ORGANIZATION_TEXT, maxLengthMessage(MAX_ORGANIZATION_TEXT)).nullable();

/** Bytes a group's files take (part 3 §3: original, pyramidal, attachments), kept by the image pipeline. */
export const StorageUsageSchema = z.object({
  originalBytes: z.number().int().nonnegative(),
  pyramidalBytes: z.number().int().nonnegative(),
  attachmentBytes: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
});
export type StorageUsage = z.infer<typeof StorageUsageSchema>;

/** A group with every field of part 3 §3 (GET/PATCH organizations/{id}). */
export const OrganizationSchema = OrganizationSummarySchema.extend({
  country: z.string().nullable(),
  phone: z.string().nullable(),
  postalCode: z.string().nullable(),
  address: z.string().nullable(),
  contact: z.string().nullable(),
  /** Null: no limit. */
  storageLimitGb: z.number().int().nullable(),
  usedStorage: StorageUsageSchema,
  memberCount: z.number().int(),
  caseCount: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type Organization = z.infer<typeof OrganizationSchema>;

/** The fields a group's form edits; limits and flags are the contract holder's to set (403 for others). */
export const OrganizationFieldsSchema = z.object({
  name: z
    .string(requiredError)
    .trim()
    .min(1, MESSAGES.fieldRequired)
    .max(MAX_ORGANIZATION_NAME, maxLengthMessage(MAX_ORGANIZATION_NAME)),
  description: optionalText,
  country: optionalText,
  phone: optionalText,
  postalCode: optionalText,
  address: optionalText,
  contact: optionalText,
  storageLimitGb: z.number().int().min(0).max(1_000_000).nullable(),
  predictionEnabled: z.boolean(),
  downloadDrawingsEnabled: z.boolean(),
});

/** POST organizations: a new group inside a contract the caller owns. */
export const CreateOrganizationRequestSchema = OrganizationFieldsSchema.partial().extend({
  name: OrganizationFieldsSchema.shape.name,
  contractId: z.uuid(MESSAGES.fieldRequired),
});
export type CreateOrganizationRequest = z.input<typeof CreateOrganizationRequestSchema>;

/** PATCH organizations/{id} (merge-patch). */
export const UpdateOrganizationRequestSchema = OrganizationFieldsSchema.partial();
export type UpdateOrganizationRequest = z.input<typeof UpdateOrganizationRequestSchema>;

/** What a recursive delete of a group would remove (the purge check shown before confirming). */
export const OrganizationPurgeCheckSchema = z.object({
  caseCount: z.number().int(),
  imageCount: z.number().int(),
  attachmentCount: z.number().int(),
  memberCount: z.number().int(),
  totalBytes: z.number().int(),
});
export type OrganizationPurgeCheck = z.infer<typeof OrganizationPurgeCheckSchema>;

/** GET organizations/me/memberships: the caller's own role in each group. */
export const MyMembershipListSchema = z.object({ data: z.array(MembershipSummarySchema) });
export type MyMembershipList = z.infer<typeof MyMembershipListSchema>;
