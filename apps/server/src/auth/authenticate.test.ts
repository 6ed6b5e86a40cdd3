import { describe, expect, it } from 'vitest';
import { useTestApp } from '#test/test-app.ts';
import { TestIssuer } from '#test/tokens.ts';

const url = '/api/v1/screen_settings/all';

describe('bearer token verification', () => {
  const t = useTestApp();

  it('accepts a valid token', async () => {
    const response = await t.app.inject({ method: 'GET', url, headers: await t.auth('alice') });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ['no token', async () => ({})],
    ['a malformed header', async () => ({ authorization: 'Token abc' })],
    ['garbage', async () => ({ authorization: 'Bearer not.a.jwt' })],
    [
      'an expired token',
      async () => ({ authorization: `Bearer ${await t.issuer.sign({ sub: 'alice', expiresIn: '-1m' })}` }),
    ],
    [
      'a token forged with another key',
      async () => ({ authorization: `Bearer ${await (await TestIssuer.create()).sign({ sub: 'alice' })}` }),
    ],
    [
      'a token of another issuer',
      async () => ({ authorization: `Bearer ${await t.issuer.sign({ sub: 'alice', issuer: 'http://evil.test' })}` }),
    ],
    [
      'a token for another audience',
      async () => ({ authorization: `Bearer ${await t.issuer.sign({ sub: 'alice', audience: 'other-app' })}` }),
    ],
  ])('answers 401 to %s', async (_name, headers) => {
    const response = await t.app.inject({ method: 'GET', url, headers: await headers() });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Unauthorized' });
  });

  it('links a first sign-in to the account with the same e-mail and keeps it linked', async () => {
    await t.database.pool.query(`INSERT INTO accounts (email, first_name) VALUES ('linked@example.test', 'Linked')`);
    const first = await t.app.inject({ method: 'GET', url, headers: await t.auth('linked') });
    expect(first.statusCode).toBe(200);
    const { rows } = await t.database.pool.query(`SELECT subject FROM accounts WHERE email = 'linked@example.test'`);
    expect(rows).toEqual([{ subject: 'linked' }]);
    const impostor = await t.issuer.sign({ sub: 'someone-else', email: 'linked@example.test' });
    const second = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${impostor}` } });
    expect(second.statusCode).toBe(403);
  });

  it('takes the super-user flag from the admin claim', async () => {
    await t.app.inject({ method: 'GET', url, headers: await t.auth('root', { superUser: true }) });
    const { rows } = await t.database.pool.query(`SELECT is_super_user FROM accounts WHERE subject = 'root'`);
    expect(rows).toEqual([{ is_super_user: true }]);
  });

  it('survives the parallel calls of a first sign-in that all try to link the account', async () => {
    await t.database.pool.query(`INSERT INTO accounts (email) VALUES ('busy@example.test')`);
    const headers = await t.auth('busy');
    const responses = await Promise.all(Array.from({ length: 8 }, () => t.app.inject({ method: 'GET', url, headers })));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(8).fill(200));
  });
});
