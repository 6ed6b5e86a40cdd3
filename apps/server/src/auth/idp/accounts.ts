import { eq, sql } from 'drizzle-orm';
import type { Account, UnknownObject } from 'oidc-provider';
import type { Db } from '../../db/client.ts';
import { accounts } from '../../db/schema/index.ts';
import { hashPassword, needsRehash, verifyPassword } from '../password.ts';
import { isUuid } from '../../http/ids.ts';

const claimColumns = {
  id: accounts.id,
  email: accounts.email,
  emailVerified: accounts.emailVerified,
  firstName: accounts.firstName,
  lastName: accounts.lastName,
  displayName: accounts.displayName,
  isSuperUser: accounts.isSuperUser,
};

type ClaimRow = Pick<typeof accounts.$inferSelect, keyof typeof claimColumns>;

/**
 * A hash of a password nobody has, verified when the e-mail is unknown so that a wrong e-mail and
 * a wrong password take the same time (no account discovery by timing).
 */
let decoyHash: Promise<string> | undefined;

export interface IdpAccounts {
  /** oidc-provider's findAccount: `sub` is the account id. */
  findAccount(sub: string): Promise<Account | undefined>;
  /** The account id for these credentials, or undefined; accounts without a password cannot sign in. */
  authenticate(email: string, password: string): Promise<string | undefined>;
  /** Claims every access token carries, so the API knows e-mail and super users from the token alone. */
  accessTokenClaims(accountId: string): Promise<UnknownObject>;
}

export function createIdpAccounts(db: Db, options: { adminClaim: string; scryptN?: number }): IdpAccounts {
  const byId = async (id: string): Promise<ClaimRow | undefined> => {
    if (!isUuid(id)) return undefined;
    const [row] = await db.select(claimColumns).from(accounts).where(eq(accounts.id, id));
    return row;
  };
  const adminClaims = (row: ClaimRow): UnknownObject => (row.isSuperUser ? { [options.adminClaim]: true } : {});

  return {
    async findAccount(sub) {
      const row = await byId(sub);
      if (row == null) return undefined;
      const name = row.displayName ?? [row.firstName, row.lastName].filter(Boolean).join(' ');
      return {
        accountId: row.id,
        // oidc-provider keeps only the claims the granted scopes allow (profile, email).
        claims: async () => ({
          sub: row.id,
          email: row.email,
          email_verified: row.emailVerified,
          given_name: row.firstName || undefined,
          family_name: row.lastName || undefined,
          name: name || undefined,
          ...adminClaims(row),
        }),
      };
    },

    async authenticate(email, password) {
      const [row] = await db
        .select({ id: accounts.id, passwordHash: accounts.passwordHash })
        .from(accounts)
        .where(eq(accounts.email, email.trim().toLowerCase()));
      if (row?.passwordHash == null) {
        decoyHash ??= hashPassword('decoy password that no account has', options.scryptN);
        await verifyPassword(password, await decoyHash);
        return undefined;
      }
      if (!(await verifyPassword(password, row.passwordHash))) return undefined;
      const rehash = needsRehash(row.passwordHash, options.scryptN)
        ? { passwordHash: await hashPassword(password, options.scryptN) }
        : {};
      await db
        .update(accounts)
        .set({ lastSignInAt: sql`now()`, ...rehash })
        .where(eq(accounts.id, row.id));
      return row.id;
    },

    async accessTokenClaims(accountId) {
      const row = await byId(accountId);
      return row == null ? {} : { email: row.email, ...adminClaims(row) };
    },
  };
}
