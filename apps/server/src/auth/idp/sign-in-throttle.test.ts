import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq, like, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { IDP_CLIENT_ID, startIdpApp, TestBrowser, useIdpTestApp, type IdpAppInstance } from '#test/idp-app.ts';
import { accounts, signInThrottle } from '../../db/schema/index.ts';
import { hashPassword } from '../password.ts';
import { clientNetwork, delaySeconds, SIGN_IN_RULES } from './sign-in-throttle.ts';

const PASSWORD = 'correct horse battery';
/** Every attempt hashes a password; on a busy machine twenty of them take a while. */
const SLOW = 120_000;
/**
 * The throttle is under test here, not the hash: the accounts' hashes, the decoy for unknown e-mails and any rehash
 * use scrypt's lowest cost the server allows (PASSWORD_SCRYPT_N), 32 times cheaper than its default.
 */
const SCRYPT_N = 2 ** 10;
const WRONG = 'wrong password';

describe('sign-in throttling through the built-in provider', { timeout: SLOW }, () => {
  // Trusts the proxy on loopback (the default), so each test names its own client addresses.
  const t = useIdpTestApp({ scryptN: SCRYPT_N });

  beforeAll(async () => {
    const passwordHash = await hashPassword(PASSWORD, SCRYPT_N);
    await t.database.db.insert(accounts).values(
      ['guessed', 'owner', 'target', 'shared', 'direct'].map((name) => ({
        email: `${name}@example.test`,
        firstName: name,
        lastName: 'Test',
        passwordHash,
        isSuperUser: name === 'target',
      })),
    );
  });

  /** The sign-in page of a new authorization request in this browser. */
  async function signInPage(app: IdpAppInstance, browser: TestBrowser): Promise<string> {
    const url = new URL(`${app.issuer}/auth`);
    const params = {
      client_id: IDP_CLIENT_ID,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: `${app.publicUrl}/auth/callback`,
      code_challenge: createHash('sha256').update(randomBytes(32)).digest('base64url'),
      code_challenge_method: 'S256',
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return browser.location(await browser.request(url.toString())).pathname;
  }

  /** A browser behind the trusted proxy at `address`, on its sign-in page; `post` sends the form. */
  async function client(address: string | undefined, app: IdpAppInstance = t) {
    const browser = new TestBrowser(app.publicUrl, { forwardedFor: address });
    const page = await signInPage(app, browser);
    return {
      post: (email: string, password: string, lang = 'en') =>
        browser.request(`${page}/login`, { form: { email, password, lang } }),
    };
  }

  async function failTimes(post: (email: string, password: string) => Promise<Response>, email: string, n: number) {
    for (let i = 0; i < n; i++) expect((await post(email, WRONG)).status).toBe(401);
  }

  it('doubles the wait after five wrong passwords, answers 429 with Retry-After, then lets the right password in', async () => {
    const { post } = await client('198.51.100.1');
    const email = 'guessed@example.test';
    await failTimes(post, email, 5);

    // While the wait lasts, even the right password is not checked: a guesser learns nothing.
    const first = await post(email, PASSWORD);
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('1');
    const html = await first.text();
    expect(html).toContain('Too many attempts. Try again in 1 second.');
    expect(html).toContain(`value="${email}"`);
    await sleep(1000);

    await failTimes(post, email, 1);
    // The same account however the e-mail is written.
    const second = await post(email.toUpperCase(), PASSWORD, 'ja');
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('2');
    expect(await second.text()).toContain('試行回数が多すぎます。2 秒後にもう一度お試しください。');
    await sleep(2000);

    expect((await post(email, PASSWORD)).status).toBe(303);
    // The success forgot the account's failures from this address: five free failures again.
    await failTimes((await client('198.51.100.1')).post, email, 5);
  });

  it('keeps no e-mail, nor a plain hash of one, that a list of candidates could find again', async () => {
    const { post } = await client('198.51.100.9');
    const typed = 'Spring2026!@example.test';
    await failTimes(post, typed, 1);
    const keys = (await t.database.db.select({ key: signInThrottle.key }).from(signInThrottle)).map((row) => row.key);
    const plain = createHash('sha256').update(typed.toLowerCase()).digest('base64url');
    expect(keys.filter((key) => key.endsWith('@198.51.100.9'))).toHaveLength(1);
    expect(keys.some((key) => key.includes(plain) || key.toLowerCase().includes('spring2026'))).toBe(false);
  });

  it('does not slow the owner for what a guesser at another address did', async () => {
    const attacker = await client('203.0.113.66');
    await failTimes(attacker.post, 'owner@example.test', 5);
    expect((await attacker.post('owner@example.test', WRONG)).status).toBe(429);

    expect((await (await client('198.51.100.2')).post('owner@example.test', PASSWORD)).status).toBe(303);
  });

  it('slows one password sprayed over many accounts from one address', async () => {
    const { post } = await client('198.51.100.3');
    for (let i = 0; i < SIGN_IN_RULES.address.free; i++) {
      expect((await post(`person${i}@example.test`, 'Spring2026!')).status).toBe(401);
    }
    const refused = await post('another@example.test', 'Spring2026!');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // One failure leaks away every few minutes, so the typos of many people behind one address never add up.
    const leak = SIGN_IN_RULES.address.leakSeconds;
    await t.database.db
      .update(signInThrottle)
      .set({ lastFailureAt: sql`${signInThrottle.lastFailureAt} - make_interval(secs => ${leak})` })
      .where(eq(signInThrottle.key, 'address:198.51.100.3'));
    expect((await post('yet-another@example.test', 'Spring2026!')).status).toBe(401);
    expect((await post('one-more@example.test', 'Spring2026!')).status).toBe(429);
  });

  it('bounds guessing of one account spread over many addresses, but not from where its owner signed in', async () => {
    const email = 'target@example.test';
    expect((await (await client('198.51.100.4')).post(email, PASSWORD)).status).toBe(303);
    for (let i = 0; i < SIGN_IN_RULES.account.free; i++) {
      expect((await (await client(`203.0.113.${i + 1}`)).post(email, WRONG)).status).toBe(401);
    }
    const refused = await (await client('192.0.2.200')).post(email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');

    expect((await (await client('198.51.100.4')).post(email, PASSWORD)).status).toBe(303);
  });

  it('shares the counts between two app instances on one database, which prune expired rows', async () => {
    const second = await startIdpApp(t.database, { scryptN: SCRYPT_N });
    try {
      const expired = { key: 'address:192.0.2.99', failures: 3, expiresAt: sql`now() - interval '1 second'` };
      await t.database.db.insert(signInThrottle).values(expired);

      await failTimes((await client('198.51.100.5')).post, 'shared@example.test', 5);
      const refused = await (await client('198.51.100.5', second)).post('shared@example.test', PASSWORD);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');

      // The second instance swept on its first attempt.
      await expect
        .poll(async () => t.database.db.select().from(signInThrottle).where(eq(signInThrottle.key, expired.key)))
        .toEqual([]);
    } finally {
      await second.app.close();
    }
  });

  it('counts a client beside the trusted proxy by its address, whatever X-Forwarded-For values it makes up', async () => {
    // The test's client is on loopback, the trusted proxy's place: it sends a new made-up value on each attempt.
    for (let i = 0; i < SIGN_IN_RULES.address.free; i++) {
      expect((await (await client(`client-${i}`)).post(`sprayed${i}@example.test`, 'Spring2026!')).status).toBe(401);
    }
    const refused = await (await client('unknown, also-not-an-address')).post('last@example.test', 'Spring2026!');
    expect(refused.status).toBe(429);
    // The spray was counted against loopback, where the next test's direct clients come from.
    await t.database.db.delete(signInThrottle).where(like(signInThrottle.key, 'address:%'));
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const direct = await startIdpApp(t.database, { trustProxy: false, scryptN: SCRYPT_N });
    try {
      // Claiming a new address on every attempt does not make them different clients.
      for (let i = 1; i <= 5; i++) {
        expect((await (await client(`192.0.2.${i}`, direct)).post('direct@example.test', WRONG)).status).toBe(401);
      }
      expect((await (await client('192.0.2.6', direct)).post('direct@example.test', PASSWORD)).status).toBe(429);
    } finally {
      await direct.app.close();
    }
  });
});

describe('throttle rules', () => {
  it('waits nothing for the free failures, then doubles from the first delay up to the cap', () => {
    const rule = SIGN_IN_RULES.accountAddress;
    expect([4, 5, 6, 7, 8].map((failures) => delaySeconds(rule, failures))).toEqual([0, 1, 2, 4, 8]);
    expect(delaySeconds(rule, 13)).toBe(256);
    expect(delaySeconds(rule, 14)).toBe(rule.capSeconds);
    expect(delaySeconds(rule, 10_000)).toBe(rule.capSeconds);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped one as IPv4', () => {
    expect(clientNetwork('2001:db8:1:2:aaaa::1')).toBe(clientNetwork('2001:db8:1:2:bbbb::2'));
    expect(clientNetwork('2001:db8:1:2:aaaa::1')).not.toBe(clientNetwork('2001:db8:1:3::1'));
    expect(clientNetwork('::ffff:198.51.100.7')).toBe('198.51.100.7');
  });
});
