import { z } from 'zod';
import { OrganizationCapabilitiesSchema } from './capabilities.ts';

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
