import type { Case, CaseList, OrganizationList, TransferCasesRequestSchema } from '@pathology/contract';
import type { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService, VisibleOrganization } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import type { OrganizationRepository } from '../organizations/organization.repository.ts';
import type { CaseViews } from './case-view.ts';
import { CASE_CHANGED } from './case.service.ts';
import type { CaseRepository } from './case.repository.ts';

type TransferManyInput = z.output<typeof TransferCasesRequestSchema>;

interface Deps {
  cases: Pick<CaseRepository, 'moveCases'>;
  organizations: Pick<OrganizationRepository, 'findSummaries'>;
  views: Pick<CaseViews, 'one' | 'many'>;
  capabilities: Pick<
    CapabilitiesService,
    'requireCaseCapability' | 'requireOrganizationCapability' | 'getManyCaseCapabilities' | 'listOrganizationAccesses'
  >;
}

const byName = new Intl.Collator('ja', { numeric: true, sensitivity: 'base' });

/**
 * Moving cases between groups: the caller needs transfer on each case and case creation in the
 * destination. Not-visible answers 404 before anything else, missing rights 403.
 */
export function createCaseTransferService({ cases, organizations, views, capabilities }: Deps) {
  async function summaries(accesses: readonly VisibleOrganization[]): Promise<OrganizationList> {
    const capabilitiesById = new Map(accesses.map((access) => [access.organization.id, access.capabilities]));
    const rows = await organizations.findSummaries([...capabilitiesById.keys()]);
    const data = rows
      .map((row) => ({ ...row, userCapabilities: capabilitiesById.get(row.id)! }))
      .sort((a, b) => byName.compare(a.name, b.name));
    return { data, total: data.length };
  }

  async function creatableGroups(caller: Caller): Promise<VisibleOrganization[]> {
    const accesses = await capabilities.listOrganizationAccesses(caller);
    return accesses.filter((access) => access.capabilities.canCreateCase);
  }

  return {
    /** PUT cases/{id}/transfer/{orgId}. Moving a case to its own group changes nothing (PUT is idempotent). */
    async transfer(caller: Caller, caseId: string, organizationId: string): Promise<Case> {
      const access = await capabilities.requireCaseCapability(caller, caseId, 'canTransfer');
      await capabilities.requireOrganizationCapability(caller, organizationId, 'canCreateCase');
      const owner = access.case.ownerOrganization.id;
      if (owner !== organizationId) {
        const result = await cases.moveCases([caseId], owner, organizationId);
        if (!result.moved) throw HttpError.conflict(CASE_CHANGED);
      }
      return views.one(caller, caseId);
    },

    /**
     * PUT cases/transfer/multiple/{orgId}: all or nothing. Any invisible case → 404, any case
     * without transfer → 403, any case no longer in the group it was picked from → 409.
     */
    async transferMany(caller: Caller, organizationId: string, input: TransferManyInput): Promise<CaseList> {
      const ids = [...new Set(input.cases)];
      const capabilitiesById = await capabilities.getManyCaseCapabilities(caller, ids);
      if (ids.some((id) => !capabilitiesById.has(id))) throw HttpError.notFound();
      if (ids.some((id) => capabilitiesById.get(id)?.canTransfer !== true)) throw HttpError.forbidden();
      await capabilities.requireOrganizationCapability(caller, organizationId, 'canCreateCase');

      const result = await cases.moveCases(ids, input.organizationId, organizationId);
      if (!result.moved) {
        const names = result.strayCaseNumbers.map((caseNumber) => `"${caseNumber}"`).join(', ');
        throw HttpError.conflict(
          names === '' ? CASE_CHANGED : `Not in the group the cases were picked from: case ${names}`,
        );
      }
      const data = await views.many(caller, ids);
      return { data, total: data.length };
    },

    /**
     * POST organizations/transferable/{caseId}: where the case may go, i.e. the groups where the
     * caller may create cases except its current owner. Needs transfer on the case.
     */
    async transferableFor(caller: Caller, caseId: string): Promise<OrganizationList> {
      const access = await capabilities.requireCaseCapability(caller, caseId, 'canTransfer');
      const owner = access.case.ownerOrganization.id;
      return summaries((await creatableGroups(caller)).filter((group) => group.organization.id !== owner));
    },

    /** POST organizations/transferable/all: every group where the caller may create cases (super users: all). */
    async transferableAll(caller: Caller): Promise<OrganizationList> {
      return summaries(await creatableGroups(caller));
    },
  };
}

export type CaseTransferService = ReturnType<typeof createCaseTransferService>;
