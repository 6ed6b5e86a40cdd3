import type {
  CaseGrant,
  CaseGrantList,
  CreateCaseGrantRequestSchema,
  GroupRole,
  UpdateCaseGrantRequestSchema,
} from '@pathology/contract';
import { GRANTEE_MESSAGES } from '@pathology/contract';
import { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import { CASE_ROLES, type CapabilitiesService, type CaseRole } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import type { GrantRepository, GrantRow } from './grant.repository.ts';

type CreateInput = z.output<typeof CreateCaseGrantRequestSchema>;
type UpdateInput = z.output<typeof UpdateCaseGrantRequestSchema>;

interface Deps {
  grants: GrantRepository;
  capabilities: Pick<CapabilitiesService, 'requireCaseCapability' | 'getOrganizationAccess'>;
}

export const GRANT_MESSAGES = {
  roleAboveOwn: 'You may not grant or change a role above your own on this case',
  unknownAccount: 'No account with this e-mail address or id',
  unknownGroup: GRANTEE_MESSAGES.chooseGroup,
  duplicate: 'This account or group already has a permission on the case; change its role instead',
} as const;

const isUuid = (value: string) => z.uuid().safeParse(value).success;

function toGrant(row: GrantRow): CaseGrant {
  return { ...row, caseId: row.caseId!, createdAt: row.createdAt.toISOString() };
}

/**
 * Grants on a case: every call needs share. Sharing never lifts anyone above the sharer: a grant
 * may be given, changed or taken away only when its role is at most the caller's own on the case.
 */
export function createGrantService({ grants, capabilities }: Deps) {
  function requireWithinOwnRole(callerRole: CaseRole, grantedRole: GroupRole): void {
    if (CASE_ROLES.indexOf(callerRole) < CASE_ROLES.indexOf(grantedRole)) {
      throw HttpError.forbidden(GRANT_MESSAGES.roleAboveOwn);
    }
  }

  /** The grantee's id: an account by id or e-mail, or a group the caller can see (422 otherwise). */
  async function resolveGrantee(caller: Caller, input: CreateInput): Promise<string> {
    const found =
      input.granteeType === 'account'
        ? await grants.findAccountId(isUuid(input.granteeId) ? { id: input.granteeId } : { email: input.granteeId })
        : (await capabilities.getOrganizationAccess(caller, input.granteeId))?.organization.id;
    if (found != null) return found;
    const message = input.granteeType === 'account' ? GRANT_MESSAGES.unknownAccount : GRANT_MESSAGES.unknownGroup;
    throw HttpError.validation({ granteeId: message });
  }

  /** The grant on this case; a grant of another case is as absent as one that does not exist. */
  async function grantOf(caseId: string, grantId: string): Promise<GrantRow> {
    const row = isUuid(grantId) ? await grants.find(grantId) : undefined;
    if (row?.caseId !== caseId) throw HttpError.notFound();
    return row;
  }

  return {
    async list(caller: Caller, caseId: string): Promise<CaseGrantList> {
      await capabilities.requireCaseCapability(caller, caseId, 'canShare');
      const data = (await grants.listForCase(caseId)).map(toGrant);
      return { data, total: data.length };
    },

    async create(caller: Caller, caseId: string, input: CreateInput): Promise<CaseGrant> {
      const access = await capabilities.requireCaseCapability(caller, caseId, 'canShare');
      requireWithinOwnRole(access.role, input.grantedRole);
      const granteeId = await resolveGrantee(caller, input);
      const id = await grants.createForCase({
        caseId,
        grantedRole: input.grantedRole,
        granteeType: input.granteeType,
        granteeId,
      });
      if (id == null) throw HttpError.conflict(GRANT_MESSAGES.duplicate);
      return toGrant((await grants.find(id))!);
    },

    async update(caller: Caller, caseId: string, grantId: string, input: UpdateInput): Promise<CaseGrant> {
      const access = await capabilities.requireCaseCapability(caller, caseId, 'canShare');
      const grant = await grantOf(caseId, grantId);
      requireWithinOwnRole(access.role, grant.grantedRole);
      requireWithinOwnRole(access.role, input.grantedRole);
      await grants.updateRole(grant.id, input.grantedRole);
      return toGrant({ ...grant, grantedRole: input.grantedRole });
    },

    async delete(caller: Caller, caseId: string, grantId: string): Promise<void> {
      const access = await capabilities.requireCaseCapability(caller, caseId, 'canShare');
      const grant = await grantOf(caseId, grantId);
      requireWithinOwnRole(access.role, grant.grantedRole);
      await grants.delete(grant.id);
    },
  };
}

export type GrantService = ReturnType<typeof createGrantService>;
