import type { GroupRole, Membership, MembershipList, MembershipListQuery } from '@pathology/contract';
import { and, asc, desc, eq, ilike, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { purgeUnattachedAccount } from '../accounts/account-purge.ts';
import { accounts, invitations, memberships, organizationPartners, organizations } from '../../db/schema/index.ts';

const sortColumns = {
  email: accounts.email,
  firstName: accounts.firstName,
  lastName: accounts.lastName,
  role: memberships.role,
  team: memberships.team,
  createdAt: memberships.createdAt,
};

/** `%`, `_` and `\` typed in a filter are matched as themselves. */
const likePattern = (value: string) => `%${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

function fieldFilter(query: MembershipListQuery): SQL | undefined {
  if (query.filterField == null || !query.filterValue) return undefined;
  if (query.filterField === 'role') return sql`${memberships.role}::text = ${query.filterValue}`;
  return ilike(sortColumns[query.filterField], likePattern(query.filterValue));
}

/** The field filter, the manage type (all, signed-in members, pending invitations) and the team. */
function filtersOf(query: MembershipListQuery): SQL | undefined {
  const manage = query.manageType === 'all' ? undefined : eq(memberships.invited, query.manageType === 'invited');
  const team = query.teamId ? eq(memberships.team, query.teamId) : undefined;
  return and(fieldFilter(query), manage, team);
}

const memberColumns = {
  accountId: accounts.id,
  email: accounts.email,
  firstName: accounts.firstName,
  lastName: accounts.lastName,
  displayName: accounts.displayName,
  role: memberships.role,
  emailVerified: accounts.emailVerified,
  invited: memberships.invited,
  team: memberships.team,
  createdAt: memberships.createdAt,
};

function toMembership({
  role,
  createdAt,
  ...row
}: { role: GroupRole; createdAt: Date } & Omit<Membership, 'roles' | 'createdAt'>): Membership {
  return { ...row, roles: [role], createdAt: createdAt.toISOString() };
}

export function createMembershipRepository(db: Db) {
  /** The total of a page past the end (which has no rows to carry it). */
  async function count(where: SQL | undefined): Promise<number> {
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(memberships)
      .innerJoin(accounts, eq(accounts.id, memberships.accountId))
      .where(where);
    return row?.count ?? 0;
  }

  async function teamsOf(organizationId: string): Promise<string[]> {
    const rows = await db
      .selectDistinct({ team: memberships.team })
      .from(memberships)
      .where(and(eq(memberships.organizationId, organizationId), isNotNull(memberships.team)))
      .orderBy(asc(memberships.team));
    return rows.map((row) => row.team!);
  }

  return {
    async list(organizationId: string, query: MembershipListQuery): Promise<MembershipList> {
      const where = and(eq(memberships.organizationId, organizationId), filtersOf(query));
      const order = query.direction === 'desc' ? desc : asc;
      const rows = await db
        .select({ ...memberColumns, total: sql<number>`count(*) OVER ()::int` })
        .from(memberships)
        .innerJoin(accounts, eq(accounts.id, memberships.accountId))
        .where(where)
        .orderBy(order(sortColumns[query.field]), asc(accounts.email))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit);
      return {
        data: rows.map(({ total: _total, ...row }) => toMembership(row)),
        total: rows[0]?.total ?? (await count(where)),
        teams: await teamsOf(organizationId),
      };
    },

    async findByEmail(organizationId: string, email: string): Promise<Membership | null> {
      const [row] = await db
        .select(memberColumns)
        .from(memberships)
        .innerJoin(accounts, eq(accounts.id, memberships.accountId))
        .where(and(eq(memberships.organizationId, organizationId), eq(accounts.email, email.toLowerCase())));
      return row == null ? null : toMembership(row);
    },

    async update(organizationId: string, accountId: string, changes: { role?: GroupRole; team?: string | null }) {
      if (Object.keys(changes).length === 0) return;
      await db
        .update(memberships)
        .set(changes)
        .where(and(eq(memberships.organizationId, organizationId), eq(memberships.accountId, accountId)));
    },

    /**
     * Removes the person from the group with their pending invitations to it; with `purge`, also deletes their
     * account when it then belongs to no group and owns no contract (what they wrote stays, authorless).
     */
    async remove(organizationId: string, accountId: string, email: string, purge: boolean) {
      return db.transaction(async (tx) => {
        await tx
          .delete(memberships)
          .where(and(eq(memberships.organizationId, organizationId), eq(memberships.accountId, accountId)));
        await tx
          .delete(invitations)
          .where(and(eq(invitations.organizationId, organizationId), eq(invitations.email, email)));
        if (!purge) return { accountDeleted: false };
        return { accountDeleted: await purgeUnattachedAccount(tx, accountId) };
      });
    },

    async partners(organizationId: string, page: number, limit: number) {
      const rows = await db
        .select({
          id: organizations.id,
          name: organizations.name,
          createdAt: organizationPartners.createdAt,
          total: sql<number>`count(*) OVER ()::int`,
        })
        .from(organizationPartners)
        .innerJoin(organizations, eq(organizations.id, organizationPartners.partnerOrganizationId))
        .where(eq(organizationPartners.organizationId, organizationId))
        .orderBy(asc(organizations.name))
        .limit(limit)
        .offset((page - 1) * limit);
      return {
        data: rows.map(({ total: _total, createdAt, ...row }) => ({ ...row, createdAt: createdAt.toISOString() })),
        total: rows[0]?.total ?? 0,
      };
    },
  };
}

export type MembershipRepository = ReturnType<typeof createMembershipRepository>;
