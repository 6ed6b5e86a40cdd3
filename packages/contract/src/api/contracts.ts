import { z } from 'zod';
import { ContractCapabilitiesSchema } from './capabilities.ts';
import { maxLengthMessage, requiredError } from './cases.ts';
import { MESSAGES } from './errors.ts';

const MAX_CONTRACT_TEXT = 1000;
const text = z.string().trim().max(MAX_CONTRACT_TEXT, maxLengthMessage(MAX_CONTRACT_TEXT)).nullable();
const isoDate = z.iso.date(MESSAGES.fieldRequired);

/**
 * The plans a contract is offered on. The field stays free text (part 3 §3 leaves plan values unnamed), so
 * contracts stored with another plan keep it; these are the ones the UI names in each language.
 */
export const CONTRACT_PLANS = ['standard', 'enterprise', 'provider'] as const;
export type ContractPlan = (typeof CONTRACT_PLANS)[number];

/** The editable fields of a contract (part 3 §3). */
export const ContractFieldsSchema = z.object({
  name: z.string(requiredError).trim().min(1, MESSAGES.fieldRequired).max(200, maxLengthMessage(200)),
  plan: z.string(requiredError).trim().min(1, MESSAGES.fieldRequired).max(100, maxLengthMessage(100)),
  startDate: isoDate,
  endDate: isoDate.nullable(),
  contractorName: z.string().trim().max(200, maxLengthMessage(200)),
  details: text,
  countryCode: text,
  postalCode: text,
  address: text,
  tel: text,
  emergencyContact: text,
  billingContact: text,
  /** Null: no limit. */
  maxOrganizations: z.number().int().min(0).max(10_000).nullable(),
  storageLimitGb: z.number().int().min(0).max(1_000_000).nullable(),
});

export const ContractSchema = ContractFieldsSchema.extend({
  id: z.uuid(),
  organizationCount: z.number().int(),
  proprietors: z.array(z.object({ accountId: z.uuid(), email: z.string(), name: z.string() })),
  userCapabilities: ContractCapabilitiesSchema,
  /** When the provider authenticated (checked) the contract; null until then. */
  authenticatedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type Contract = z.infer<typeof ContractSchema>;

export const ContractListSchema = z.object({ data: z.array(ContractSchema) });
export type ContractList = z.infer<typeof ContractListSchema>;

function endNotBeforeStart(value: { startDate?: string; endDate?: string | null }, context: z.RefinementCtx) {
  if (value.startDate && value.endDate && value.endDate < value.startDate) {
    context.addIssue({ code: 'custom', path: ['endDate'], message: MESSAGES.endDateBeforeStart });
  }
}

export const CreateContractRequestSchema = ContractFieldsSchema.superRefine(endNotBeforeStart);
export type CreateContractRequest = z.input<typeof CreateContractRequestSchema>;

export const UpdateContractRequestSchema = ContractFieldsSchema.partial().superRefine(endNotBeforeStart);
export type UpdateContractRequest = z.input<typeof UpdateContractRequestSchema>;

/** A contract's groups (GET contracts/{id}/organizations). */
export const ContractOrganizationListSchema = z.object({
  data: z.array(
    z.object({ id: z.uuid(), name: z.string(), storageLimitGb: z.number().int().nullable(), totalBytes: z.number() }),
  ),
});
export type ContractOrganizationList = z.infer<typeof ContractOrganizationListSchema>;
