import type { CreateContractRequest, UpdateContractRequest } from '@pathology/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { purgeUnattachedAccount } from '../accounts/account-purge.ts';
import { accounts, contractProprietors, contracts, invitations, organizations } from '../../db/schema/index.ts';
import { accountName } from '../accounts/account-name.ts';

export function createContractRepository(db: Db) {
  async function proprietorsOf(contractIds: readonly string[]) {
    if (contractIds.length === 0) return [];
    return db
      .select({
        contractId: contractProprietors.contractId,
        accountId: accounts.id,
        email: accounts.email,
        name: sql<string>`${accountName}`,
      })
      .from(contractProprietors)
      .innerJoin(accounts, eq(accounts.id, contractProprietors.accountId))
      .where(inArray(contractProprietors.contractId, [...contractIds]))
      .orderBy(asc(accounts.email));
  }

  return {
    /** Contracts by id (all when `ids` is null), by name, with their proprietors and group counts. */
    async find(ids: readonly string[] | null) {
      if (ids != null && ids.length === 0) return [];
      const rows = await db
        .select({
          contract: contracts,
          organizationCount: sql<number>`(SELECT count(*)::int FROM organizations o WHERE o.contract_id = "contracts"."id")`,
        })
        .from(contracts)
        .where(ids == null ? undefined : inArray(contracts.id, [...ids]))
        .orderBy(asc(contracts.name));
      const owners = await proprietorsOf(rows.map((row) => row.contract.id));
      return rows.map((row) => ({
        ...row,
        proprietors: owners
          .filter((owner) => owner.contractId === row.contract.id)
          .map(({ contractId: _contractId, ...owner }) => owner),
      }));
    },

    async create(values: CreateContractRequest, ownerAccountId: string | null): Promise<string> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(contracts).values(values).returning({ id: contracts.id });
        if (ownerAccountId != null) {
          await tx.insert(contractProprietors).values({ contractId: row!.id, accountId: ownerAccountId });
        }
        return row!.id;
      });
    },

    async update(contractId: string, patch: UpdateContractRequest): Promise<void> {
      if (Object.keys(patch).length > 0) await db.update(contracts).set(patch).where(eq(contracts.id, contractId));
    },

    /** Deletes a contract that holds no group; false when it still has some. */
    async deleteIfEmpty(contractId: string): Promise<boolean> {
      const deleted = await db
        .delete(contracts)
        .where(
          and(
            eq(contracts.id, contractId),
            sql`NOT EXISTS (SELECT 1 FROM ${organizations} WHERE ${organizations.contractId} = ${contractId})`,
          ),
        )
        .returning({ id: contracts.id });
      return deleted.length > 0;
    },

    async setAuthenticated(contractId: string, by: string | null): Promise<void> {
      await db
        .update(contracts)
        .set({ authenticatedAt: by == null ? null : new Date(), authenticatedByAccountId: by })
        .where(eq(contracts.id, contractId));
    },

    async organizationsOf(contractId: string) {
      return db
        .select({
          id: organizations.id,
          name: organizations.name,
          storageLimitGb: organizations.storageLimitGb,
          totalBytes: sql<number>`(${organizations.usedOriginalBytes} + ${organizations.usedPyramidalBytes} + ${organizations.usedAttachmentBytes})::float8`,
        })
        .from(organizations)
        .where(eq(organizations.contractId, contractId))
        .orderBy(asc(organizations.name));
    },

    /**
     * Takes the account off the contract's proprietors with its pending invitations; with `purge`, deletes the
     * account too when it then belongs to no group and owns no contract. Null when it was not a proprietor.
     */
    async removeProprietor(contractId: string, email: string, purge: boolean) {
      return db.transaction(async (tx) => {
        const [account] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email));
        if (account == null) return null;
        const removed = await tx
          .delete(contractProprietors)
          .where(and(eq(contractProprietors.contractId, contractId), eq(contractProprietors.accountId, account.id)))
          .returning();
        if (removed.length === 0) return null;
        await tx.delete(invitations).where(and(eq(invitations.contractId, contractId), eq(invitations.email, email)));
        if (!purge) return { accountDeleted: false };
        return { accountDeleted: await purgeUnattachedAccount(tx, account.id) };
      });
    },
  };
}

export type ContractRepository = ReturnType<typeof createContractRepository>;
