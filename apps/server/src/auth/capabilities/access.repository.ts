import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Caller } from '../caller.ts';
import type { Db } from '../../db/client.ts';
import { acceptedMembership } from './accepted-membership.ts';
import {
  cases,
  contractProprietors,
  contracts,
  grants,
  memberships,
  organizationPartners,
  organizations,
} from '../../db/schema/index.ts';
import type {
  CallerAccess,
  CaseFacts,
  GrantFact,
  MembershipFact,
  OrganizationFacts,
  PartnershipFact,
} from './access-facts.ts';

type CallerIdentity = Pick<Caller, 'accountId' | 'isSuperUser'>;

const organizationColumns = {
  id: organizations.id,
  contractId: organizations.contractId,
  predictionEnabled: organizations.predictionEnabled,
  downloadDrawingsEnabled: organizations.downloadDrawingsEnabled,
  drawingCreationDenied: organizations.drawingCreationDenied,
};

/** Ids of the groups the account has joined (invitations accepted), as a subquery (memberships_account_idx). */
function callerOrganizations(accountId: string): SQL {
  return sql`SELECT ${memberships.organizationId} FROM ${memberships}
    WHERE ${memberships.accountId} = ${accountId} AND ${acceptedMembership}`;
}

/** Grants given to the account itself or to one of its groups (grants_grantee_idx). */
function grantedToCaller(accountId: string): SQL {
  return sql`((${grants.granteeType} = 'account' AND ${grants.granteeId} = ${accountId})
    OR (${grants.granteeType} = 'organization' AND ${grants.granteeId} IN (${callerOrganizations(accountId)})))`;
}

/**
 * A WHERE condition on the `cases` table (under its own name) keeping exactly the cases the caller
 * may view, by the same sources as effectiveCaseRole: every source gives at least view access, so
 * "visible" is "some source exists". Values are bound parameters.
 *
 * Each source list is computed once (ARRAY(subquery) is an InitPlan) and compared with `= ANY`, which
 * unlike `IN (subquery)` under an OR stays indexable: the planner can BitmapOr the owner, provider
 * and primary-key indexes instead of scanning every case.
 */
export function visibleCasesCondition(caller: CallerIdentity): SQL {
  if (caller.isSuperUser) return sql`true`;
  const me = caller.accountId;
  return sql`(
    ${cases.ownerOrganizationId} = ANY(ARRAY(
      ${callerOrganizations(me)}
      UNION
      SELECT ${organizations.id} FROM ${organizations}
        JOIN ${contractProprietors} ON ${contractProprietors.contractId} = ${organizations.contractId}
        WHERE ${contractProprietors.accountId} = ${me}
      UNION
      SELECT ${organizationPartners.organizationId} FROM ${organizationPartners}
        WHERE ${organizationPartners.partnerOrganizationId} IN (${callerOrganizations(me)})
      UNION
      SELECT ${grants.organizationId} FROM ${grants}
        WHERE ${grants.organizationId} IS NOT NULL AND ${grantedToCaller(me)}
    ))
    OR ${cases.intendedOwnerOrganizationId} = ANY(ARRAY(${callerOrganizations(me)}))
    OR ${cases.id} = ANY(ARRAY(
      SELECT ${grants.caseId} FROM ${grants} WHERE ${grants.caseId} IS NOT NULL AND ${grantedToCaller(me)}
    ))
  )`;
}

/** Loads the access facts of one caller and one case, group or contract (see access-facts.ts). */
export function createAccessRepository(db: Db) {
  return {
    /**
     * The caller's accepted memberships, partner relations and contract ownerships; `grants` is left empty.
     * Every capability and visible-group set is computed from these facts or from callerOrganizations.
     */
    async loadCaller(caller: CallerIdentity): Promise<CallerAccess> {
      const [membershipRows, contractRows] = await Promise.all([
        // One row per membership and partnered group: a caller belongs to a handful of groups.
        db
          .select({
            organizationId: memberships.organizationId,
            role: memberships.role,
            contractId: organizations.contractId,
            isProvider: organizations.isProvider,
            partnerOf: organizationPartners.organizationId,
          })
          .from(memberships)
          .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
          .leftJoin(organizationPartners, eq(organizationPartners.partnerOrganizationId, memberships.organizationId))
          .where(and(eq(memberships.accountId, caller.accountId), acceptedMembership)),
        db
          .select({ contractId: contractProprietors.contractId })
          .from(contractProprietors)
          .where(eq(contractProprietors.accountId, caller.accountId)),
      ]);
      const byOrganization = new Map<string, MembershipFact>();
      const partnerships: PartnershipFact[] = [];
      for (const row of membershipRows) {
        byOrganization.set(row.organizationId, {
          organizationId: row.organizationId,
          contractId: row.contractId,
          role: row.role,
        });
        if (row.partnerOf != null) {
          partnerships.push({ organizationId: row.partnerOf, partnerOrganizationId: row.organizationId });
        }
      }
      return {
        accountId: caller.accountId,
        isSuperUser: caller.isSuperUser,
        isProviderEmployee: membershipRows.some((row) => row.isProvider),
        memberships: [...byOrganization.values()],
        proprietorContractIds: contractRows.map((row) => row.contractId),
        partnerships,
        grants: [],
      };
    },

    async findCases(caseIds: readonly string[]): Promise<CaseFacts[]> {
      if (caseIds.length === 0) return [];
      return db
        .select({
          id: cases.id,
          intendedOwnerOrganizationId: cases.intendedOwnerOrganizationId,
          ownerOrganization: organizationColumns,
        })
        .from(cases)
        .innerJoin(organizations, eq(organizations.id, cases.ownerOrganizationId))
        .where(inArray(cases.id, [...caseIds]));
    },

    async findOrganization(organizationId: string): Promise<OrganizationFacts | null> {
      const [row] = await db
        .select(organizationColumns)
        .from(organizations)
        .where(eq(organizations.id, organizationId));
      return row ?? null;
    },

    /** Every group; group counts are small (tens to hundreds), so listing filters them in memory. */
    async findAllOrganizations(): Promise<OrganizationFacts[]> {
      return db.select(organizationColumns).from(organizations);
    },

    async contractExists(contractId: string): Promise<boolean> {
      const [row] = await db.select({ id: contracts.id }).from(contracts).where(eq(contracts.id, contractId));
      return row != null;
    },

    /**
     * Grants concerning the caller on some cases (their own grants and their owner groups') or on
     * one group. Owner groups are found by a subquery so this can run alongside findCases.
     */
    async findCallerGrants(
      accountId: string,
      target: { caseIds: readonly string[] } | { organizationId: string } | { allOrganizations: true },
    ): Promise<GrantFact[]> {
      if ('caseIds' in target && target.caseIds.length === 0) return [];
      const onTarget =
        'allOrganizations' in target
          ? eq(grants.resourceType, 'organization')
          : 'caseIds' in target
            ? or(
                inArray(grants.caseId, [...target.caseIds]),
                inArray(
                  grants.organizationId,
                  db
                    .select({ id: cases.ownerOrganizationId })
                    .from(cases)
                    .where(inArray(cases.id, [...target.caseIds])),
                ),
              )
            : eq(grants.organizationId, target.organizationId);
      return db
        .select({
          resourceType: grants.resourceType,
          caseId: grants.caseId,
          organizationId: grants.organizationId,
          grantedRole: grants.grantedRole,
          granteeType: grants.granteeType,
          granteeId: grants.granteeId,
        })
        .from(grants)
        .where(and(onTarget, grantedToCaller(accountId)));
    },
  };
}

export type AccessRepository = ReturnType<typeof createAccessRepository>;
