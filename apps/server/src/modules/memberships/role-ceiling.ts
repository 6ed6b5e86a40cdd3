import type { GroupRole } from '@pathology/contract';
import { organizationRoleAtLeast, type OrganizationRole } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';

export const ROLE_CEILING_MESSAGE = 'You may not give or change a role above your own in this group';

/**
 * Roles in a group are given by those who hold at least as much: an invitation, a member's new role or a group
 * grant above the caller's own role there (or changing someone above it) is refused with 403.
 */
export function requireRoleWithinOwn(callerRole: OrganizationRole, role: GroupRole): void {
  if (!organizationRoleAtLeast(callerRole, role)) throw HttpError.forbidden(ROLE_CEILING_MESSAGE);
}
