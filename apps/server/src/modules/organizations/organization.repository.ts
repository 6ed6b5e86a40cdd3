import type { UpdateOrganizationRequest } from '@pathology/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contracts, organizations } from '../../db/schema/index.ts';

const summaryColumns = {
  id: organizations.id,
  name: organizations.name,
  description: organizations.description,
  contractId: organizations.contractId,
  contractName: contracts.name,
  predictionEnabled: organizations.predictionEnabled,
  downloadDrawingsEnabled: organizations.downloadDrawingsEnabled,
  aiAgreementSkipped: organizations.aiAgreementSkipped,
  isProvider: organizations.isProvider,
};

export type NewOrganization = Omit<UpdateOrganizationRequest, 'name'> & { name: string; contractId: string };

export function createOrganizationRepository(db: Db) {
  return {
    async findSummaries(organizationIds: readonly string[]) {
      if (organizationIds.length === 0) return [];
      return db
        .select(summaryColumns)
        .from(organizations)
        .innerJoin(contracts, eq(contracts.id, organizations.contractId))
        .where(inArray(organizations.id, [...organizationIds]));
    },

    /** Every field of one group, with its storage use and how many members and cases it has. */
    async findDetail(organizationId: string) {
      const [row] = await db
        .select({
          ...summaryColumns,
          country: organizations.country,
          phone: organizations.phone,
          postalCode: organizations.postalCode,
          address: organizations.address,
          contact: organizations.contact,
          storageLimitGb: organizations.storageLimitGb,
          usedOriginalBytes: organizations.usedOriginalBytes,
          usedPyramidalBytes: organizations.usedPyramidalBytes,
          usedAttachmentBytes: organizations.usedAttachmentBytes,
          createdAt: organizations.createdAt,
          memberCount: sql<number>`(SELECT count(*)::int FROM memberships m WHERE m.organization_id = ${organizations.id})`,
          caseCount: sql<number>`(SELECT count(*)::int FROM cases c WHERE c.owner_organization_id = ${organizations.id})`,
        })
        .from(organizations)
        .innerJoin(contracts, eq(contracts.id, organizations.contractId))
        .where(eq(organizations.id, organizationId));
      return row ?? null;
    },

    async update(organizationId: string, patch: UpdateOrganizationRequest): Promise<void> {
      if (Object.keys(patch).length === 0) return;
      await db.update(organizations).set(patch).where(eq(organizations.id, organizationId));
    },

    /**
     * Creates the group unless its contract already holds `maxOrganizations` groups. The contract row is locked so
     * two creations at once cannot both pass the limit.
     */
    async createWithinLimit(values: NewOrganization): Promise<{ id: string } | 'contract_not_found' | 'limit_reached'> {
      return db.transaction(async (tx) => {
        const [contract] = await tx
          .select({ maxOrganizations: contracts.maxOrganizations })
          .from(contracts)
          .where(eq(contracts.id, values.contractId))
          .for('update');
        if (contract == null) return 'contract_not_found';
        if (contract.maxOrganizations != null) {
          const [{ count }] = (await tx
            .select({ count: sql<number>`count(*)::int` })
            .from(organizations)
            .where(eq(organizations.contractId, values.contractId))) as [{ count: number }];
          if (count >= contract.maxOrganizations) return 'limit_reached';
        }
        const [created] = await tx.insert(organizations).values(values).returning({ id: organizations.id });
        return created!;
      });
    },
  };
}

export type OrganizationRepository = ReturnType<typeof createOrganizationRepository>;
