import { eq } from 'drizzle-orm';
import { memberships } from '../../db/schema/index.ts';

/**
 * The condition every reading of `memberships` that gives something (sight of cases and groups, a role,
 * a notice's audience, a place among the people one may mention) adds: an invited row only reserves the
 * seat and its role until the person accepts the invitation's link, and grants nothing before that.
 * The administrators' member list is the one reader that shows invited rows too.
 */
export const acceptedMembership = eq(memberships.invited, false);
