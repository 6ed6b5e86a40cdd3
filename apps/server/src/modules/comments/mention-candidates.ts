import { and, eq } from 'drizzle-orm';
import { acceptedMembership } from '../../auth/capabilities/index.ts';
import type { Db } from '../../db/client.ts';
import { accounts, memberships } from '../../db/schema/index.ts';
import type { MentionCandidate } from './mentions.ts';

/** Members of a group (not those still invited: they cannot see the case), as the people a comment or an image note may mention. */
export function loadMentionCandidates(db: Db, organizationId: string): Promise<MentionCandidate[]> {
  return db
    .select({
      accountId: accounts.id,
      displayName: accounts.displayName,
      firstName: accounts.firstName,
      lastName: accounts.lastName,
      email: accounts.email,
    })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.organizationId, organizationId), acceptedMembership));
}
