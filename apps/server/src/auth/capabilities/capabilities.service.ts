import type { CaseCapabilities, ContractCapabilities, OrganizationCapabilities, RoleChecks } from '@pathology/contract';
import { HttpError } from '../../http/http-error.ts';
import type { Caller } from '../caller.ts';
import type { AccessRepository } from './access.repository.ts';
import type { CaseFacts, OrganizationFacts } from './access-facts.ts';
import { computeCaseAccess, type CaseAccess, type CaseCapability } from './case-capabilities.ts';
import { computeContractAccess, type ContractCapability } from './contract-capabilities.ts';
import {
  computeOrganizationAccess,
  type OrganizationAccess,
  type OrganizationCapability,
} from './organization-capabilities.ts';
import { computeRoleChecks } from './role-checks.ts';
import { isUuid } from '../../http/ids.ts';

type Repository = Pick<
  AccessRepository,
  'loadCaller' | 'findCases' | 'findOrganization' | 'findAllOrganizations' | 'contractExists' | 'findCallerGrants'
>;

type CallerIdentity = Pick<Caller, 'accountId' | 'isSuperUser'>;

/** A case the caller may see, with the facts it was judged on (owner group, contract) for reuse. */
export interface VisibleCase extends CaseAccess {
  case: CaseFacts;
}

export interface VisibleOrganization extends OrganizationAccess {
  organization: OrganizationFacts;
}

/**
 * The one place that answers "may this caller do this?" for cases, groups and contracts. Routes
 * ask it before anything else: not visible → 404 (existence is never leaked), visible but not
 * allowed → 403.
 */
export function createCapabilitiesService(repository: Repository) {
  async function caseAccesses(caller: CallerIdentity, caseIds: readonly string[]): Promise<Map<string, VisibleCase>> {
    // A malformed id cannot name a case; answering "absent" spares PostgreSQL a cast error (500).
    const ids = [...new Set(caseIds)].filter((id) => isUuid(id));
    const [access, facts, grants] = await Promise.all([
      repository.loadCaller(caller),
      repository.findCases(ids),
      caller.isSuperUser ? [] : repository.findCallerGrants(caller.accountId, { caseIds: ids }),
    ]);
    const withGrants = { ...access, grants };
    const result = new Map<string, VisibleCase>();
    for (const kase of facts) {
      const computed = computeCaseAccess(withGrants, kase);
      if (computed != null) result.set(kase.id, { ...computed, case: kase });
    }
    return result;
  }

  async function caseAccess(caller: CallerIdentity, caseId: string): Promise<VisibleCase | null> {
    return (await caseAccesses(caller, [caseId])).get(caseId) ?? null;
  }

  async function organizationAccess(
    caller: CallerIdentity,
    organizationId: string,
  ): Promise<VisibleOrganization | null> {
    if (!isUuid(organizationId)) return null;
    const [access, organization, grants] = await Promise.all([
      repository.loadCaller(caller),
      repository.findOrganization(organizationId),
      caller.isSuperUser ? [] : repository.findCallerGrants(caller.accountId, { organizationId }),
    ]);
    if (organization == null) return null;
    const computed = computeOrganizationAccess({ ...access, grants }, organization);
    return computed == null ? null : { ...computed, organization };
  }

  async function contractCapabilities(
    caller: CallerIdentity,
    contractId: string,
  ): Promise<ContractCapabilities | null> {
    if (!isUuid(contractId)) return null;
    const [access, exists] = await Promise.all([repository.loadCaller(caller), repository.contractExists(contractId)]);
    return exists ? computeContractAccess(access, contractId) : null;
  }

  return {
    /** Role and capabilities on a case; null when the caller may not see it. */
    getCaseAccess: caseAccess,

    async getCaseCapabilities(caller: CallerIdentity, caseId: string): Promise<CaseCapabilities | null> {
      return (await caseAccess(caller, caseId))?.capabilities ?? null;
    },

    /** Capabilities of many cases at once (case lists): invisible cases are simply missing. */
    async getManyCaseCapabilities(
      caller: CallerIdentity,
      caseIds: readonly string[],
    ): Promise<Map<string, CaseCapabilities>> {
      const accesses = await caseAccesses(caller, caseIds);
      return new Map([...accesses].map(([id, access]) => [id, access.capabilities]));
    },

    /** Throws 404 unless the caller may see the case. */
    async requireCaseVisible(caller: CallerIdentity, caseId: string): Promise<VisibleCase> {
      const access = await caseAccess(caller, caseId);
      if (access == null) throw HttpError.notFound();
      return access;
    },

    /** Throws 404 when the case is invisible, 403 when the capability is missing. */
    async requireCaseCapability(
      caller: CallerIdentity,
      caseId: string,
      capability: CaseCapability,
    ): Promise<VisibleCase> {
      const access = await caseAccess(caller, caseId);
      if (access == null) throw HttpError.notFound();
      if (!access.capabilities[capability]) throw HttpError.forbidden();
      return access;
    },

    getOrganizationAccess: organizationAccess,

    /** Every group the caller may see, with what they may do in each. */
    async listOrganizationAccesses(caller: CallerIdentity): Promise<VisibleOrganization[]> {
      const [access, all, grants] = await Promise.all([
        repository.loadCaller(caller),
        repository.findAllOrganizations(),
        caller.isSuperUser ? [] : repository.findCallerGrants(caller.accountId, { allOrganizations: true }),
      ]);
      const withGrants = { ...access, grants };
      return all.flatMap((organization) => {
        const computed = computeOrganizationAccess(withGrants, organization);
        return computed == null ? [] : [{ ...computed, organization }];
      });
    },

    async getOrganizationCapabilities(
      caller: CallerIdentity,
      organizationId: string,
    ): Promise<OrganizationCapabilities | null> {
      return (await organizationAccess(caller, organizationId))?.capabilities ?? null;
    },

    async requireOrganizationVisible(caller: CallerIdentity, organizationId: string): Promise<VisibleOrganization> {
      const access = await organizationAccess(caller, organizationId);
      if (access == null) throw HttpError.notFound();
      return access;
    },

    async requireOrganizationCapability(
      caller: CallerIdentity,
      organizationId: string,
      capability: OrganizationCapability,
    ): Promise<VisibleOrganization> {
      const access = await organizationAccess(caller, organizationId);
      if (access == null) throw HttpError.notFound();
      if (!access.capabilities[capability]) throw HttpError.forbidden();
      return access;
    },

    getContractCapabilities: contractCapabilities,

    /** Capabilities on many contracts with the caller loaded once (contract lists): invisible ones are missing. */
    async getManyContractCapabilities(
      caller: CallerIdentity,
      contractIds: readonly string[],
    ): Promise<Map<string, ContractCapabilities>> {
      const access = await repository.loadCaller(caller);
      const result = new Map<string, ContractCapabilities>();
      for (const id of contractIds) {
        const computed = computeContractAccess(access, id);
        if (computed != null) result.set(id, computed);
      }
      return result;
    },

    async requireContractCapability(
      caller: CallerIdentity,
      contractId: string,
      capability: ContractCapability,
    ): Promise<ContractCapabilities> {
      const capabilities = await contractCapabilities(caller, contractId);
      if (capabilities == null) throw HttpError.notFound();
      if (!capabilities[capability]) throw HttpError.forbidden();
      return capabilities;
    },

    async getRoleChecks(caller: CallerIdentity): Promise<RoleChecks> {
      return computeRoleChecks(await repository.loadCaller(caller));
    },

    /** For actions on nothing yet existing (create a contract): 403 unless the role check holds. */
    async requireRoleCheck(caller: CallerIdentity, check: keyof RoleChecks): Promise<RoleChecks> {
      const checks = computeRoleChecks(await repository.loadCaller(caller));
      if (!checks[check]) throw HttpError.forbidden();
      return checks;
    },
  };
}

export type CapabilitiesService = ReturnType<typeof createCapabilitiesService>;
