import { z } from 'zod';
import { GroupRoleSchema } from '../domain/roles.ts';
import { maxLengthMessage, requiredError } from './cases.ts';
import { MESSAGES } from './errors.ts';

/** Part 3 §9: memberships and partners are listed 10 at a time from page 1. */
export const MEMBERSHIP_PAGE_SIZE = 10;
export const MAX_PERSON_NAME = 100;

/** One person in a group (part 3 §3 "Membership or account"). */
export const MembershipSchema = z.object({
  accountId: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string().nullable(),
  /** The role held in the group, as a list (the invitation payload's shape); one role today. */
  roles: z.array(GroupRoleSchema),
  emailVerified: z.boolean(),
  /** Invited and not signed in yet. */
  invited: z.boolean(),
  /** The team within the group; null for none. */
  team: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type Membership = z.infer<typeof MembershipSchema>;

export const MembershipListSchema = z.object({
  data: z.array(MembershipSchema),
  total: z.number().int(),
  /** Every team named in the group, for the team filter. */
  teams: z.array(z.string()),
});
export type MembershipList = z.infer<typeof MembershipListSchema>;

export const MANAGE_TYPES = ['all', 'active', 'invited'] as const;
export const MAX_TEAM_NAME = 100;

export const MEMBERSHIP_SORT_FIELDS = ['email', 'firstName', 'lastName', 'role', 'team', 'createdAt'] as const;
export const MEMBERSHIP_FILTER_FIELDS = ['email', 'firstName', 'lastName', 'role'] as const;

/** GET organizations/{id}/memberships: page, limit, sort field and direction, filter field and value. */
export const MembershipListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(MEMBERSHIP_PAGE_SIZE),
  field: z.enum(MEMBERSHIP_SORT_FIELDS).default('email'),
  direction: z.enum(['asc', 'desc']).default('asc'),
  filterField: z.enum(MEMBERSHIP_FILTER_FIELDS).optional(),
  filterValue: z.string().trim().max(200).optional(),
  /** Which memberships to manage: every one, those signed in (active) or pending invitations. */
  manageType: z.enum(MANAGE_TYPES).default('all'),
  /** Only this team's members (a team name). */
  teamId: z.string().trim().max(MAX_TEAM_NAME).optional(),
});
export type MembershipListQuery = z.output<typeof MembershipListQuerySchema>;

/** PATCH organizations/{id}/memberships/{email}: a new role, a new team (blank or null: none), or both. */
export const UpdateMembershipRequestSchema = z.object({
  roles: z.array(GroupRoleSchema).length(1).optional(),
  team: z
    .string()
    .trim()
    .max(MAX_TEAM_NAME, maxLengthMessage(MAX_TEAM_NAME))
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value)),
});
export type UpdateMembershipRequest = z.input<typeof UpdateMembershipRequestSchema>;

const personName = z.string(requiredError).trim().max(MAX_PERSON_NAME, maxLengthMessage(MAX_PERSON_NAME));

/** POST organizations/{id}/invitations and .../resend (part 3 §3 "Invitation payload"). */
export const InvitationRequestSchema = z.object({
  email: z.string(requiredError).trim().toLowerCase().min(1, MESSAGES.fieldRequired).pipe(z.email(MESSAGES.fieldEmail)),
  firstName: personName.min(1, MESSAGES.fieldRequired),
  lastName: personName.min(1, MESSAGES.fieldRequired),
  roles: z.array(GroupRoleSchema).length(1, MESSAGES.fieldRequired),
});
export type InvitationRequest = z.input<typeof InvitationRequestSchema>;

/** POST contracts/{id}/invitations and .../resend: a new proprietor of the contract. */
export const ContractInvitationRequestSchema = InvitationRequestSchema.pick({ email: true }).extend({
  firstName: personName.optional(),
  lastName: personName.optional(),
});
export type ContractInvitationRequest = z.input<typeof ContractInvitationRequestSchema>;

export const InvitationSentSchema = z.object({ email: z.string(), expiresAt: z.iso.datetime() });
export type InvitationSent = z.infer<typeof InvitationSentSchema>;

/** A partner group: its members may view and comment on every case of the group. */
export const PartnerSchema = z.object({ id: z.uuid(), name: z.string(), createdAt: z.iso.datetime() });
export const PartnerListSchema = z.object({ data: z.array(PartnerSchema), total: z.number().int() });
export type PartnerList = z.infer<typeof PartnerListSchema>;

/** A grant on a whole group (GET organizations/{id}/grants). */
export const OrganizationGrantSchema = z.object({
  id: z.uuid(),
  organizationId: z.uuid(),
  grantedRole: GroupRoleSchema,
  granteeType: z.enum(['account', 'organization']),
  granteeId: z.uuid(),
  granteeName: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export const OrganizationGrantListSchema = z.object({ data: z.array(OrganizationGrantSchema), total: z.number() });
export type OrganizationGrantList = z.infer<typeof OrganizationGrantListSchema>;
export const UpdateOrganizationGrantRequestSchema = z.object({ grantedRole: GroupRoleSchema });

/** A mail the installation sent without SMTP, kept in DATA_DIR/outbox for super users to read. */
export const OutboxMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  sentAt: z.iso.datetime(),
});
export const OutboxListSchema = z.object({ data: z.array(OutboxMailSchema) });
export type OutboxMail = z.infer<typeof OutboxMailSchema>;
