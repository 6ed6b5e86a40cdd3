import {
  ContractFieldsSchema,
  MESSAGES,
  type Contract,
  type ContractCapabilities,
  type ContractList,
  type ContractOrganizationList,
  type CreateContractRequest,
  type UpdateContractRequest,
} from '@pathology/contract';
import type { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import type { ContractRepository } from './contract.repository.ts';

type Row = Awaited<ReturnType<ContractRepository['find']>>[number];

/**
 * The Contracts screen (part 3 §2): proprietors see and edit their contracts, provider employees and super
 * users create them, super users see all, delete empty ones and authenticate them.
 */
export function createContractService(deps: { contracts: ContractRepository; capabilities: CapabilitiesService }) {
  const { contracts, capabilities } = deps;

  function toContract(row: Row, userCapabilities: ContractCapabilities): Contract {
    const { id, createdAt, authenticatedAt } = row.contract;
    const fields = ContractFieldsSchema.keyof().options.reduce(
      (picked, key) => ({ ...picked, [key]: row.contract[key] }),
      {} as z.infer<typeof ContractFieldsSchema>,
    );
    return {
      id,
      ...fields,
      organizationCount: row.organizationCount,
      proprietors: row.proprietors,
      userCapabilities,
      authenticatedAt: authenticatedAt?.toISOString() ?? null,
      createdAt: createdAt.toISOString(),
    };
  }

  async function one(caller: Caller, contractId: string): Promise<Contract> {
    const userCapabilities = await capabilities.requireContractCapability(caller, contractId, 'canSee');
    const [row] = await contracts.find([contractId]);
    if (row == null) throw HttpError.notFound();
    return toContract(row, userCapabilities);
  }

  return {
    get: one,

    /** GET contracts: every contract for super users, else the ones the caller owns (may edit). */
    async list(caller: Caller): Promise<ContractList> {
      const all = await contracts.find(null);
      const byId = await capabilities.getManyContractCapabilities(
        caller,
        all.map((row) => row.contract.id),
      );
      return {
        data: all.flatMap((row) => {
          const userCapabilities = byId.get(row.contract.id);
          return userCapabilities?.canEdit ? [toContract(row, userCapabilities)] : [];
        }),
      };
    },

    /** POST contracts: a provider employee who creates one owns it; a super user's has no owner until invited. */
    async create(caller: Caller, request: CreateContractRequest): Promise<Contract> {
      await capabilities.requireRoleCheck(caller, 'canCreateContract');
      const id = await contracts.create(request, caller.isSuperUser ? null : caller.accountId);
      return one(caller, id);
    },

    async update(caller: Caller, contractId: string, patch: UpdateContractRequest): Promise<Contract> {
      await capabilities.requireContractCapability(caller, contractId, 'canEdit');
      await contracts.update(contractId, patch);
      return one(caller, contractId);
    },

    async delete(caller: Caller, contractId: string): Promise<void> {
      await capabilities.requireContractCapability(caller, contractId, 'canDelete');
      if (!(await contracts.deleteIfEmpty(contractId))) throw HttpError.conflict(MESSAGES.contractHasGroups);
    },

    /** POST/DELETE contracts/{id}/authentications: the provider (a super user) confirms or withdraws the check. */
    async setAuthenticated(caller: Caller, contractId: string, authenticated: boolean): Promise<Contract> {
      await capabilities.requireContractCapability(caller, contractId, 'canDelete');
      await contracts.setAuthenticated(contractId, authenticated ? caller.accountId : null);
      return one(caller, contractId);
    },

    async organizations(caller: Caller, contractId: string): Promise<ContractOrganizationList> {
      await capabilities.requireContractCapability(caller, contractId, 'canSee');
      return { data: await contracts.organizationsOf(contractId) };
    },

    async proprietors(caller: Caller, contractId: string) {
      await capabilities.requireContractCapability(caller, contractId, 'canEdit');
      const [row] = await contracts.find([contractId]);
      return { data: row?.proprietors ?? [] };
    },

    async removeProprietor(caller: Caller, contractId: string, email: string, purge: boolean) {
      await capabilities.requireContractCapability(caller, contractId, 'canRemoveMember');
      const result = await contracts.removeProprietor(contractId, email.toLowerCase(), purge);
      if (result == null) throw HttpError.notFound();
      return result;
    },
  };
}

export type ContractService = ReturnType<typeof createContractService>;
