import { createHash, randomBytes } from 'node:crypto';
import {
  MESSAGES,
  type ContractInvitationRequest,
  type GroupRole,
  type InvitationRequest,
  type InvitationSent,
} from '@pathology/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { hashPassword } from '../../auth/password.ts';
import type { Db, Tx } from '../../db/client.ts';
import {
  accounts,
  contractProprietors,
  contracts,
  invitations,
  memberships,
  organizations,
} from '../../db/schema/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { accountName } from '../accounts/account-name.ts';
import type { Mailer } from '../mail/mailer.ts';
import { invitationMail } from './invitation-mail.ts';
import { requireRoleWithinOwn } from './role-ceiling.ts';

/** How long an invitation link works; resending starts a new period with a new link. */
export const INVITATION_VALID_DAYS = 7;
export const INVITATION_PATH = '/invitations';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

interface Deps {
  db: Db;
  mailer: Mailer;
  capabilities: CapabilitiesService;
  publicUrl: string;
}

export type InvitationTarget = { organizationId: string } | { contractId: string };

/** A pending invitation as its link's page shows it. */
export interface OpenInvitation {
  email: string;
  targetName: string;
  kind: 'organization' | 'contract';
  /** The account can already sign in with a password of the built-in provider: no new password is asked. */
  hasPassword: boolean;
}

export function createInvitationService({ db, mailer, capabilities, publicUrl }: Deps) {
  async function findOrCreateAccount(tx: Tx, email: string, firstName = '', lastName = ''): Promise<string> {
    await tx.insert(accounts).values({ email, firstName, lastName }).onConflictDoNothing({ target: accounts.email });
    const [row] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email));
    return row!.id;
  }

  /** Replaces any pending invitation of the address to the target with a fresh one; returns its link's token. */
  async function issue(
    tx: Tx,
    target: InvitationTarget,
    values: { email: string; firstName: string; lastName: string; roles: GroupRole[]; invitedBy: string },
  ): Promise<{ token: string; expiresAt: Date }> {
    const targetColumn =
      'organizationId' in target
        ? eq(invitations.organizationId, target.organizationId)
        : eq(invitations.contractId, target.contractId);
    await tx
      .delete(invitations)
      .where(and(targetColumn, eq(invitations.email, values.email), isNull(invitations.acceptedAt)));
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + INVITATION_VALID_DAYS * 24 * 3600 * 1000);
    await tx.insert(invitations).values({
      ...target,
      email: values.email,
      firstName: values.firstName,
      lastName: values.lastName,
      roles: values.roles,
      token: hashToken(token),
      invitedByAccountId: values.invitedBy,
      sentAt: new Date(),
      expiresAt,
    });
    return { token, expiresAt };
  }

  async function inviterName(accountId: string): Promise<string> {
    const [row] = await db.select({ name: accountName }).from(accounts).where(eq(accounts.id, accountId));
    return row?.name ?? '';
  }

  async function send(
    issued: { token: string; expiresAt: Date },
    mail: { to: string; firstName: string; target: string; kind: 'organization' | 'contract'; caller: Caller },
  ): Promise<InvitationSent> {
    await mailer.send(
      invitationMail({
        ...mail,
        inviterName: await inviterName(mail.caller.accountId),
        link: `${publicUrl}${INVITATION_PATH}/${issued.token}`,
        expiresAt: issued.expiresAt,
      }),
    );
    return { email: mail.to, expiresAt: issued.expiresAt.toISOString() };
  }

  return {
    /**
     * POST organizations/{id}/invitations (and /resend): needs invite-user, and the role may not be above the
     * caller's own. A new person gets an account and a membership marked invited; the mail carries the link.
     */
    async inviteToOrganization(
      caller: Caller,
      organizationId: string,
      request: InvitationRequest,
      options: { resend: boolean },
    ): Promise<InvitationSent> {
      const access = await capabilities.requireOrganizationCapability(caller, organizationId, 'canInviteUser');
      const role = request.roles[0]!;
      requireRoleWithinOwn(access.role, role);
      const email = request.email.toLowerCase();
      const issued = await db.transaction(async (tx) => {
        const accountId = await findOrCreateAccount(tx, email, request.firstName, request.lastName);
        const [existing] = await tx
          .select({ invited: memberships.invited })
          .from(memberships)
          .where(and(eq(memberships.organizationId, organizationId), eq(memberships.accountId, accountId)));
        if (options.resend) {
          if (existing == null || !existing.invited) throw HttpError.notFound(MESSAGES.notInvited);
          await tx
            .update(memberships)
            .set({ role })
            .where(and(eq(memberships.organizationId, organizationId), eq(memberships.accountId, accountId)));
        } else {
          if (existing != null) throw HttpError.conflict(MESSAGES.alreadyMember);
          await tx.insert(memberships).values({ organizationId, accountId, role, invited: true });
        }
        return issue(tx, { organizationId }, { ...request, email, roles: [role], invitedBy: caller.accountId });
      });
      const [group] = await db
        .select({ name: organizations.name })
        .from(organizations)
        .where(eq(organizations.id, organizationId));
      return send(issued, {
        to: email,
        firstName: request.firstName,
        target: group!.name,
        kind: 'organization',
        caller,
      });
    },

    /** POST contracts/{id}/invitations (and /resend): a new proprietor of the contract, once they accept. */
    async inviteToContract(
      caller: Caller,
      contractId: string,
      request: ContractInvitationRequest,
      options: { resend: boolean },
    ): Promise<InvitationSent> {
      await capabilities.requireContractCapability(caller, contractId, 'canInviteUser');
      const email = request.email.toLowerCase();
      const firstName = request.firstName ?? '';
      const issued = await db.transaction(async (tx) => {
        const accountId = await findOrCreateAccount(tx, email, firstName, request.lastName ?? '');
        const [owner] = await tx
          .select({ accountId: contractProprietors.accountId })
          .from(contractProprietors)
          .where(and(eq(contractProprietors.contractId, contractId), eq(contractProprietors.accountId, accountId)));
        if (owner != null) throw HttpError.conflict(MESSAGES.alreadyMember);
        if (options.resend) {
          const [pending] = await tx
            .select({ id: invitations.id })
            .from(invitations)
            .where(
              and(eq(invitations.contractId, contractId), eq(invitations.email, email), isNull(invitations.acceptedAt)),
            );
          if (pending == null) throw HttpError.notFound(MESSAGES.notInvited);
        }
        const values = { email, firstName, lastName: request.lastName ?? '', roles: ['proprietor' as const] };
        return issue(tx, { contractId }, { ...values, invitedBy: caller.accountId });
      });
      const [contract] = await db.select({ name: contracts.name }).from(contracts).where(eq(contracts.id, contractId));
      return send(issued, { to: email, firstName, target: contract!.name, kind: 'contract', caller });
    },

    /** The invitation behind a link, or null when the link is unknown, used or expired. */
    async open(token: string): Promise<OpenInvitation | null> {
      const [row] = await db
        .select({
          email: invitations.email,
          organizationName: organizations.name,
          contractName: contracts.name,
          hasPassword: sql<boolean>`${accounts.passwordHash} IS NOT NULL`,
        })
        .from(invitations)
        .innerJoin(accounts, eq(accounts.email, invitations.email))
        .leftJoin(organizations, eq(organizations.id, invitations.organizationId))
        .leftJoin(contracts, eq(contracts.id, invitations.contractId))
        .where(
          and(
            eq(invitations.token, hashToken(token)),
            isNull(invitations.acceptedAt),
            sql`${invitations.expiresAt} > now()`,
          ),
        );
      if (row == null) return null;
      return {
        email: row.email,
        targetName: row.organizationName ?? row.contractName ?? '',
        kind: row.organizationName != null ? 'organization' : 'contract',
        hasPassword: row.hasPassword,
      };
    },

    /**
     * Accepts the invitation once: sets the password (when given), marks the address verified, and makes the
     * person a member with the invited role or a proprietor of the contract. False when the link is not valid.
     */
    async accept(token: string, password: string | null): Promise<boolean> {
      const passwordHash = password == null ? null : await hashPassword(password);
      return db.transaction(async (tx) => {
        const [invitation] = await tx
          .select()
          .from(invitations)
          .where(
            and(
              eq(invitations.token, hashToken(token)),
              isNull(invitations.acceptedAt),
              sql`${invitations.expiresAt} > now()`,
            ),
          )
          .for('update');
        if (invitation == null) return false;
        await tx.update(invitations).set({ acceptedAt: new Date() }).where(eq(invitations.id, invitation.id));
        const [account] = await tx
          .update(accounts)
          .set({ emailVerified: true, ...(passwordHash != null ? { passwordHash } : {}) })
          .where(eq(accounts.email, invitation.email))
          .returning({ id: accounts.id });
        if (account == null) return false;
        if (invitation.organizationId != null) {
          await tx
            .update(memberships)
            .set({ invited: false })
            .where(
              and(eq(memberships.organizationId, invitation.organizationId), eq(memberships.accountId, account.id)),
            );
        } else if (invitation.contractId != null) {
          await tx
            .insert(contractProprietors)
            .values({ contractId: invitation.contractId, accountId: account.id })
            .onConflictDoNothing();
        }
        return true;
      });
    },
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
