import { and, eq, sql } from 'drizzle-orm';
import { accounts, contractProprietors, memberships } from '../../db/schema/index.ts';
import type { Tx } from '../../db/client.ts';

/**
 * The purge of a removal: deletes the account when it belongs to no group, owns no contract and is not a
 * super user. What the person wrote stays, without its author. True when the account went.
 */
export async function purgeUnattachedAccount(tx: Tx, accountId: string): Promise<boolean> {
  const deleted = await tx
    .delete(accounts)
    .where(
      and(
        eq(accounts.id, accountId),
        eq(accounts.isSuperUser, false),
        sql`NOT EXISTS (SELECT 1 FROM ${memberships} WHERE ${memberships.accountId} = ${accountId})`,
        sql`NOT EXISTS (SELECT 1 FROM ${contractProprietors} WHERE ${contractProprietors.accountId} = ${accountId})`,
      ),
    )
    .returning({ id: accounts.id });
  return deleted.length > 0;
}
