import {
  OrganizationGrantListSchema,
  OrganizationGrantSchema,
  UpdateOrganizationGrantRequestSchema,
  type GroupRole,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';
import type { GrantRepository, GrantRow } from './grant.repository.ts';
import { requireRoleWithinOwn } from '../memberships/role-ceiling.ts';

function toGrant(row: GrantRow) {
  return {
    id: row.id,
    organizationId: row.organizationId!,
    grantedRole: row.grantedRole,
    granteeType: row.granteeType,
    granteeId: row.granteeId,
    granteeName: row.granteeName,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Grants on a whole group (GET organizations/{id}/grants, PATCH .../{grantId}): the group's administrators manage them. */
export function createOrganizationGrantService(deps: { grants: GrantRepository; capabilities: CapabilitiesService }) {
  return {
    async list(caller: Caller, organizationId: string) {
      await deps.capabilities.requireOrganizationCapability(caller, organizationId, 'canSeeMemberList');
      const data = (await deps.grants.listForOrganization(organizationId)).map(toGrant);
      return { data, total: data.length };
    },

    async update(caller: Caller, organizationId: string, grantId: string, grantedRole: GroupRole) {
      const access = await deps.capabilities.requireOrganizationCapability(caller, organizationId, 'canEdit');
      const grant = isUuid(grantId) ? await deps.grants.find(grantId) : undefined;
      if (grant == null || grant.organizationId !== organizationId || grant.caseId != null) throw HttpError.notFound();
      requireRoleWithinOwn(access.role, grant.grantedRole);
      requireRoleWithinOwn(access.role, grantedRole);
      await deps.grants.updateRole(grant.id, grantedRole);
      return toGrant({ ...grant, grantedRole });
    },
  };
}

type OrganizationGrantService = ReturnType<typeof createOrganizationGrantService>;

const Params = z.object({ id: z.string() });

export const organizationGrantRoutes: FastifyPluginAsyncZod<{ service: OrganizationGrantService }> = async (
  app,
  { service },
) => {
  app.get(
    '/organizations/:id/grants',
    {
      schema: {
        operationId: 'listOrganizationGrants',
        tags: ['grants'],
        summary: 'Roles given on every case of the group to accounts or groups; needs the member list (administrator)',
        params: Params,
        response: { 200: OrganizationGrantListSchema },
      },
    },
    (request) => service.list(request.caller, request.params.id),
  );

  app.patch(
    '/organizations/:id/grants/:grantId',
    {
      schema: {
        operationId: 'updateOrganizationGrant',
        tags: ['grants'],
        summary: "Changes a group grant's role (merge-patch); needs edit, and never above the caller's own role",
        params: Params.extend({ grantId: z.string() }),
        body: UpdateOrganizationGrantRequestSchema,
        response: { 200: OrganizationGrantSchema },
      },
    },
    (request) => service.update(request.caller, request.params.id, request.params.grantId, request.body.grantedRole),
  );
};
