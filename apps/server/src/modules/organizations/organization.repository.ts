import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contracts, organizations } from '../../db/schema/index.ts';

export function createOrganizationRepository(db: Db) {
  return {
    async findSummaries(organizationIds: readonly string[]) {
      if (organizationIds.length === 0) return [];
      return db
        .select({
          id: organizations.id,
          name: organizations.name,
          description: organizations.description,
          contractId: organizations.contractId,
          contractName: contracts.name,
          predictionEnabled: organizations.predictionEnabled,
          downloadDrawingsEnabled: organizations.downloadDrawingsEnabled,
          aiAgreementSkipped: organizations.aiAgreementSkipped,
          isProvider: organizations.isProvider,
        })
        .from(organizations)
        .innerJoin(contracts, eq(contracts.id, organizations.contractId))
        .where(inArray(organizations.id, [...organizationIds]));
    },
  };
}

export type OrganizationRepository = ReturnType<typeof createOrganizationRepository>;
