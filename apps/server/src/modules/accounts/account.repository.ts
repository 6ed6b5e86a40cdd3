import { and, asc, eq, sql } from 'drizzle-orm';
import type { Caller } from '../../auth/caller.ts';
import { acceptedMembership } from '../../auth/capabilities/index.ts';
import type { VerifiedToken } from '../../auth/token-verifier.ts';
import type { Db } from '../../db/client.ts';
import { accounts, memberships, organizations } from '../../db/schema/index.ts';
import { HttpError } from '../../http/http-error.ts';

export function createAccountRepository(db: Db) {
  const callerColumns = { accountId: accounts.id, email: accounts.email, isSuperUser: accounts.isSuperUser };

  return {
    async findById(accountId: string) {
      const [row] = await db
        .select({
          id: accounts.id,
          email: accounts.email,
          firstName: accounts.firstName,
          lastName: accounts.lastName,
          displayName: accounts.displayName,
          avatarUrl: accounts.avatarUrl,
          affiliation: accounts.affiliation,
          profile: accounts.profile,
          createdAt: accounts.createdAt,
        })
        .from(accounts)
        .where(eq(accounts.id, accountId));
      return row;
    },

    async update(
      accountId: string,
      values: Partial<
        Pick<
          typeof accounts.$inferInsert,
          'firstName' | 'lastName' | 'displayName' | 'avatarUrl' | 'affiliation' | 'profile'
        >
      >,
    ): Promise<boolean> {
      if (Object.keys(values).length === 0) return true;
      const updated = await db
        .update(accounts)
        .set(values)
        .where(eq(accounts.id, accountId))
        .returning({ id: accounts.id });
      return updated.length > 0;
    },

    /** The groups the account has joined, with its role in each (an invitation not yet accepted is no membership). */
    async findMemberships(accountId: string) {
      return db
        .select({
          organizationId: memberships.organizationId,
          organizationName: organizations.name,
          role: memberships.role,
        })
        .from(memberships)
        .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
        .where(and(eq(memberships.accountId, accountId), acceptedMembership))
        .orderBy(asc(organizations.name));
    },

    /**
     * The local account of a verified token: found by the provider's subject (one indexed read on
     * every request), else linked by e-mail on first sign-in (invited and seeded accounts), else
     * created. The super-user flag follows the token's admin claim, which the identity provider owns.
     */
    async resolveCaller(token: VerifiedToken): Promise<Caller> {
      const [known] = await db.select(callerColumns).from(accounts).where(eq(accounts.subject, token.subject));
      if (known != null) {
        if (known.isSuperUser === token.isSuperUser) return known;
        await db.update(accounts).set({ isSuperUser: token.isSuperUser }).where(eq(accounts.id, known.accountId));
        return { ...known, isSuperUser: token.isSuperUser };
      }
      const email = (token.email ?? `${token.subject}@unknown.invalid`).toLowerCase();
      const [linked] = await db
        .insert(accounts)
        .values({
          email,
          subject: token.subject,
          firstName: token.givenName ?? '',
          lastName: token.familyName ?? '',
          displayName: token.name,
          isSuperUser: token.isSuperUser,
          lastSignInAt: new Date(),
        })
        .onConflictDoUpdate({
          target: accounts.email,
          set: { subject: token.subject, isSuperUser: token.isSuperUser, lastSignInAt: sql`now()` },
          setWhere: sql`${accounts.subject} IS NULL`,
        })
        .returning(callerColumns);
      if (linked != null) return linked;
      // A first sign-in fires several calls at once: another of them may have linked this subject meanwhile.
      const [raced] = await db.select(callerColumns).from(accounts).where(eq(accounts.subject, token.subject));
      if (raced == null) throw HttpError.forbidden('This e-mail address is linked to another sign-in identity');
      return raced;
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
