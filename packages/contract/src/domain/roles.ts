import { z } from 'zod';

/** Group (organization) roles, lowest first: each role includes the rights of the ones before it. */
export const GROUP_ROLES = ['read_only', 'member', 'administrator', 'proprietor'] as const;
export const GroupRoleSchema = z.enum(GROUP_ROLES);
export type GroupRole = z.infer<typeof GroupRoleSchema>;

/** True when `role` is at least `required` in the group role order. */
export function roleAtLeast(role: GroupRole, required: GroupRole): boolean {
  return GROUP_ROLES.indexOf(role) >= GROUP_ROLES.indexOf(required);
}

/** Who a grant is given to: one account, or every member of an organization. */
export const GRANTEE_TYPES = ['account', 'organization'] as const;
export const GranteeTypeSchema = z.enum(GRANTEE_TYPES);
export type GranteeType = z.infer<typeof GranteeTypeSchema>;

/** What a grant opens: a single case, or all cases of an organization. */
export const GRANT_RESOURCE = ['case', 'organization'] as const;
export const GrantResourceSchema = z.enum(GRANT_RESOURCE);
export type GrantResource = z.infer<typeof GrantResourceSchema>;
