import { MESSAGES } from '@pathology/contract';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoAuth, type DemoKey } from '#test/demo-callers.ts';
import { useTestApp } from '#test/test-app.ts';
import { verifyPassword } from '../../auth/password.ts';
import { accounts, contractProprietors, invitations, memberships, organizations } from '../../db/schema/index.ts';
import { DEMO_GROUPS } from '../../db/seed/demo-groups.ts';
import { seedDemo } from '../../db/seed/demo.ts';

const NEW_PERSON = { email: 'Hana.Mori@Example.test', firstName: 'Hana', lastName: 'Mori', roles: ['member'] };

describe('invitations through the outbox, and the link that sets a password (part 3 §4, §7)', () => {
  const t = useTestApp({ builtInSignIn: true });
  let central: string;
  let sakuraContract: string;

  beforeAll(async () => {
    await seedDemo(t.database.db);
    const rows = await t.database.db.select().from(organizations);
    const group = rows.find((row) => row.name === DEMO_GROUPS.central.name)!;
    central = group.id;
    sakuraContract = group.contractId;
  });

  const post = async (key: DemoKey, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: await demoAuth(t, key), payload });

  async function outbox(key: DemoKey = 'super') {
    return t.app.inject({ method: 'GET', url: '/api/v1/outbox', headers: await demoAuth(t, key) });
  }

  async function latestLink(to: string): Promise<string> {
    const mail = (await outbox()).json().data.find((entry: { to: string }) => entry.to === to);
    const match = /http:\/\/app\.test(\/invitations\/[A-Za-z0-9_-]+)/.exec(mail.text);
    return match![1]!;
  }

  const page = (link: string, form?: Record<string, string>) =>
    t.app.inject({
      method: form ? 'POST' : 'GET',
      url: link,
      headers: { 'accept-language': 'en', ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
    });

  it('lets administrators invite with a role up to their own; the mail lands in the outbox', async () => {
    for (const key of ['member', 'readOnly'] as const) {
      expect((await post(key, `/organizations/${central}/invitations`, NEW_PERSON)).statusCode).toBe(403);
    }
    expect((await post('staff', `/organizations/${central}/invitations`, NEW_PERSON)).statusCode).toBe(404);
    const above = await post('admin', `/organizations/${central}/invitations`, {
      ...NEW_PERSON,
      roles: ['proprietor'],
    });
    expect(above.statusCode).toBe(403);
    const invalid = await post('admin', `/organizations/${central}/invitations`, { email: 'x', roles: [] });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toMatchObject({ email: MESSAGES.fieldEmail, firstName: MESSAGES.fieldRequired });

    const sent = await post('admin', `/organizations/${central}/invitations`, NEW_PERSON);
    expect(sent.statusCode).toBe(201);
    expect(sent.json().email).toBe('hana.mori@example.test');
    const again = await post('admin', `/organizations/${central}/invitations`, NEW_PERSON);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MESSAGES.alreadyMember);

    expect((await outbox('admin')).statusCode).toBe(403);
    const mails = (await outbox()).json().data;
    expect(mails[0]).toMatchObject({
      to: 'hana.mori@example.test',
      subject: expect.stringContaining(DEMO_GROUPS.central.name),
    });
    expect(mails[0].text).toContain('Akira Tanaka has invited you to the group');
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/v1/outbox/${mails[0].id}`,
      headers: await demoAuth(t, 'super'),
    });
    expect(one.json().id).toBe(mails[0].id);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/outbox/../../etc', headers: await demoAuth(t, 'super') }))
        .statusCode,
    ).toBe(404);

    const members = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${central}/memberships?filterField=email&filterValue=hana`,
      headers: await demoAuth(t, 'admin'),
    });
    expect(members.json().data).toEqual([
      expect.objectContaining({ invited: true, roles: ['member'], emailVerified: false }),
    ]);
  });

  it('resends with a new link; the old one stops working', async () => {
    const old = await latestLink('hana.mori@example.test');
    const resent = await post('admin', `/organizations/${central}/invitations/resend`, {
      ...NEW_PERSON,
      roles: ['read_only'],
    });
    expect(resent.statusCode).toBe(201);
    const fresh = await latestLink('hana.mori@example.test');
    expect(fresh).not.toBe(old);
    expect((await page(old)).statusCode).toBe(404);
    expect((await page(fresh)).statusCode).toBe(200);
    const stranger = await post('admin', `/organizations/${central}/invitations/resend`, {
      ...NEW_PERSON,
      email: 'no@x.test',
    });
    expect(stranger.json().message).toBe(MESSAGES.notInvited);
  });

  it('sets the password once, joins the group with the invited role; reused, forged and expired links change nothing', async () => {
    const link = await latestLink('hana.mori@example.test');
    const form = await page(link);
    expect(form.body).toContain('You are invited to the group');
    expect(form.headers['content-security-policy']).toContain("default-src 'none'");

    const short = await page(link, { password: 'short', confirm: 'short', lang: 'en' });
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain('at least 10 characters');
    const mismatch = await page(link, { password: 'a-long-password', confirm: 'another-password', lang: 'en' });
    expect(mismatch.body).toContain('The passwords do not match.');

    const accepted = await page(link, { password: 'hana-new-password', confirm: 'hana-new-password', lang: 'en' });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.body).toContain('Invitation accepted');
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.email, 'hana.mori@example.test'));
    expect(account!.emailVerified).toBe(true);
    expect(await verifyPassword('hana-new-password', account!.passwordHash!)).toBe(true);
    const [membership] = await t.database.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.accountId, account!.id), eq(memberships.organizationId, central)));
    expect(membership).toMatchObject({ role: 'read_only', invited: false });

    const reused = await page(link, { password: 'attacker-password', confirm: 'attacker-password' });
    expect(reused.statusCode).toBe(404);
    expect(
      await verifyPassword(
        'hana-new-password',
        (await t.database.db.select().from(accounts).where(eq(accounts.id, account!.id)))[0]!.passwordHash!,
      ),
    ).toBe(true);
    expect((await page('/invitations/forged-token-0000000000000000000000000')).statusCode).toBe(404);

    await post('admin', `/organizations/${central}/invitations`, { ...NEW_PERSON, email: 'late@example.test' });
    const late = await latestLink('late@example.test');
    await t.database.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.email, 'late@example.test'));
    expect((await page(late, { password: 'late-password-1', confirm: 'late-password-1' })).statusCode).toBe(404);
    const [lateAccount] = await t.database.db.select().from(accounts).where(eq(accounts.email, 'late@example.test'));
    expect(lateAccount!.passwordHash).toBeNull();
  });

  it('invites a contract proprietor, who owns the contract after accepting', async () => {
    const payload = { email: 'new.owner@example.test', firstName: 'Ken' };
    expect((await post('admin', `/contracts/${sakuraContract}/invitations`, payload)).statusCode).toBe(403);
    expect((await post('staff', `/contracts/${sakuraContract}/invitations`, payload)).statusCode).toBe(404);
    expect((await post('owner', `/contracts/${sakuraContract}/invitations`, payload)).statusCode).toBe(201);
    const link = await latestLink('new.owner@example.test');
    expect((await page(link)).body).toContain('You are invited to own the contract');
    await page(link, { password: 'owner-password-1', confirm: 'owner-password-1' });
    const [owner] = await t.database.db.select().from(accounts).where(eq(accounts.email, 'new.owner@example.test'));
    const owned = await t.database.db
      .select()
      .from(contractProprietors)
      .where(eq(contractProprietors.accountId, owner!.id));
    expect(owned).toEqual([expect.objectContaining({ contractId: sakuraContract })]);
    const twice = await post('owner', `/contracts/${sakuraContract}/invitations`, payload);
    expect(twice.statusCode).toBe(409);
  });
});
