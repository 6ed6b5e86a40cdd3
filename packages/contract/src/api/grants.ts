import { z } from 'zod';
import { GranteeTypeSchema, GroupRoleSchema } from '../domain/roles.ts';
import { requiredError } from './cases.ts';
import { MESSAGES } from './errors.ts';

/** A grant on one case: a role on it for one account or for every member of a group. */
export const CaseGrantSchema = z.object({
  id: z.uuid(),
  caseId: z.uuid(),
  grantedRole: GroupRoleSchema,
  granteeType: GranteeTypeSchema,
  granteeId: z.uuid(),
  /** The account's display name (else "firstName lastName", else e-mail) or the group's name. */
  granteeName: z.string().nullable(),
  /** The account's e-mail; null for groups. */
  granteeEmail: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type CaseGrant = z.infer<typeof CaseGrantSchema>;

export const CaseGrantListSchema = z.object({ data: z.array(CaseGrantSchema), total: z.number() });
export type CaseGrantList = z.infer<typeof CaseGrantListSchema>;

/** Messages of the grant form: granteeId must name a visible group, or an account. */
export const GRANTEE_MESSAGES = { chooseGroup: 'Choose a group' } as const;

/**
 * POST cases/{id}/grants. granteeId is a group id for `organization`; for `account` an account id
 * or the account's e-mail address.
 */
export const CreateCaseGrantRequestSchema = z
  .object({
    grantedRole: GroupRoleSchema,
    granteeType: GranteeTypeSchema,
    granteeId: z.string(requiredError).trim().min(1, MESSAGES.fieldRequired),
  })
  .superRefine((value, context) => {
    const isUuid = z.uuid().safeParse(value.granteeId).success;
    const isEmail = z.email().safeParse(value.granteeId).success;
    if (value.granteeType === 'organization' && !isUuid) {
      context.addIssue({ code: 'custom', path: ['granteeId'], message: GRANTEE_MESSAGES.chooseGroup });
    }
    if (value.granteeType === 'account' && !isUuid && !isEmail) {
      context.addIssue({ code: 'custom', path: ['granteeId'], message: MESSAGES.fieldEmail });
    }
  });
export type CreateCaseGrantRequest = z.input<typeof CreateCaseGrantRequestSchema>;

/** PATCH cases/{id}/grants/{grantId} (merge-patch): only the role changes. */
export const UpdateCaseGrantRequestSchema = z.object({ grantedRole: GroupRoleSchema });
export type UpdateCaseGrantRequest = z.input<typeof UpdateCaseGrantRequestSchema>;
