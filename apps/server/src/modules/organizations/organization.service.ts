import {
  MESSAGES,
  type CreateOrganizationRequest,
  type MyMembershipList,
  type Organization,
  type OrganizationList,
  type OrganizationPurgeCheck,
  type UpdateOrganizationRequest,
} from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import type { Db } from '../../db/client.ts';
import type { AccountRepository } from '../accounts/account.repository.ts';
import { HttpError } from '../../http/http-error.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { deleteOrganization, purgeCheck } from './organization-deletion.ts';
import type { OrganizationRepository } from './organization.repository.ts';

interface Deps {
  db: Db;
  organizations: OrganizationRepository;
  capabilities: CapabilitiesService;
  blobs: Pick<BlobStore, 'deleteMany'>;
  accounts: Pick<AccountRepository, 'findMemberships'>;
}

const byName = new Intl.Collator('ja', { numeric: true, sensitivity: 'base' });

/** Fields a group administrator may not change: they cost the contract holder money or consent. */
const CONTRACT_OWNER_FIELDS = ['storageLimitGb', 'predictionEnabled', 'downloadDrawingsEnabled'] as const;

export function createOrganizationService({ db, organizations, capabilities, blobs, accounts }: Deps) {
  async function detail(caller: Caller, organizationId: string): Promise<Organization> {
    const access = await capabilities.requireOrganizationVisible(caller, organizationId);
    const row = await organizations.findDetail(organizationId);
    if (row == null) throw HttpError.notFound();
    const { usedOriginalBytes, usedPyramidalBytes, usedAttachmentBytes, createdAt, ...fields } = row;
    return {
      ...fields,
      usedStorage: {
        originalBytes: usedOriginalBytes,
        pyramidalBytes: usedPyramidalBytes,
        attachmentBytes: usedAttachmentBytes,
        totalBytes: usedOriginalBytes + usedPyramidalBytes + usedAttachmentBytes,
      },
      createdAt: createdAt.toISOString(),
      userCapabilities: access.capabilities,
    };
  }

  return {
    /** Groups the caller may see, by name (the current-group default is the first one). */
    async list(caller: Caller): Promise<OrganizationList> {
      const accesses = await capabilities.listOrganizationAccesses(caller);
      const capabilitiesById = new Map(accesses.map((access) => [access.organization.id, access.capabilities]));
      const rows = await organizations.findSummaries([...capabilitiesById.keys()]);
      const data = rows
        .map((row) => ({ ...row, userCapabilities: capabilitiesById.get(row.id)! }))
        .sort((a, b) => byName.compare(a.name, b.name));
      return { data, total: data.length };
    },

    get: detail,

    /** PATCH organizations/{id}: needs edit; limits and flags need the contract's owner (canDelete). */
    async update(caller: Caller, organizationId: string, patch: UpdateOrganizationRequest): Promise<Organization> {
      const access = await capabilities.requireOrganizationCapability(caller, organizationId, 'canEdit');
      if (CONTRACT_OWNER_FIELDS.some((field) => field in patch) && !access.capabilities.canDelete) {
        throw HttpError.forbidden(MESSAGES.organizationSettingsOwnerOnly);
      }
      await organizations.update(organizationId, patch);
      return detail(caller, organizationId);
    },

    /**
     * POST organizations: into a contract the caller owns, within its group limit. The contract is judged first,
     * so one the caller may not see answers 404 like one that does not exist, and one they only see 403.
     */
    async create(caller: Caller, request: CreateOrganizationRequest): Promise<Organization> {
      await capabilities.requireContractCapability(caller, request.contractId, 'canEdit');
      const created = await organizations.createWithinLimit({ ...request });
      if (created === 'contract_not_found') throw HttpError.notFound();
      if (created === 'limit_reached') throw HttpError.conflict(MESSAGES.organizationLimitReached);
      return detail(caller, created.id);
    },

    async purgeCheck(caller: Caller, organizationId: string): Promise<OrganizationPurgeCheck> {
      await capabilities.requireOrganizationCapability(caller, organizationId, 'canDelete');
      return purgeCheck(db, organizationId);
    },

    /** DELETE organizations/lazy/{id}: a group with cases goes only with `recursive`; its blobs follow. */
    async delete(caller: Caller, organizationId: string, options: { recursive: boolean }): Promise<void> {
      await capabilities.requireOrganizationCapability(caller, organizationId, 'canDelete');
      const result = await deleteOrganization(db, organizationId, options);
      if (result.status === 'not_found') throw HttpError.notFound();
      if (result.status === 'has_contents') throw HttpError.conflict(MESSAGES.organizationHasCases);
      await blobs.deleteMany(result.releasedBlobKeys);
    },

    async myMemberships(caller: Caller): Promise<MyMembershipList> {
      return { data: await accounts.findMemberships(caller.accountId) };
    },
  };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
