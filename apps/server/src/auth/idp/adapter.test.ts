import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { createOidcAdapterFactory } from './adapter.ts';
import { loadOrCreateIdpKeys, publicJwks } from './keys.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe('oidc-provider storage in PostgreSQL', () => {
  it('stores, finds by id and uid, and deletes payloads per model', async () => {
    const adapter = createOidcAdapterFactory(database.db);
    const sessions = adapter('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a1' }, 60);
    expect(await sessions.find('s1')).toEqual({ uid: 'u1', accountId: 'a1' });
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: 'a1' });
    expect(await adapter('Interaction').find('s1')).toBeUndefined();
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a2' }, 60);
    expect(await sessions.find('s1')).toMatchObject({ accountId: 'a2' });
    await sessions.destroy('s1');
    expect(await sessions.find('s1')).toBeUndefined();
  });

  it('hides expired payloads and marks consumed ones', async () => {
    const codes = createOidcAdapterFactory(database.db)('AuthorizationCode');
    await codes.upsert('expired', { grantId: 'g0' }, -1);
    expect(await codes.find('expired')).toBeUndefined();
    await codes.upsert('c1', { grantId: 'g1' }, 60);
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number));
  });

  it('revokes every token of a grant, model by model', async () => {
    const adapter = createOidcAdapterFactory(database.db);
    await adapter('RefreshToken').upsert('r1', { grantId: 'g2' }, 60);
    await adapter('RefreshToken').upsert('r2', { grantId: 'other' }, 60);
    await adapter('AccessToken').upsert('a1', { grantId: 'g2' }, 60);
    await adapter('RefreshToken').revokeByGrantId('g2');
    expect(await adapter('RefreshToken').find('r1')).toBeUndefined();
    expect(await adapter('RefreshToken').find('r2')).toBeDefined();
    expect(await adapter('AccessToken').find('a1')).toBeDefined();
  });
});

describe('signing and cookie keys', () => {
  it('are created once and shared by every instance, even ones starting together', async () => {
    const [first, second] = await Promise.all([loadOrCreateIdpKeys(database.db), loadOrCreateIdpKeys(database.db)]);
    expect(second).toEqual(first);
    expect(await loadOrCreateIdpKeys(database.db)).toEqual(first);
    expect(first.signingKeys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', d: expect.any(String) });
    const published = publicJwks(first).keys[0];
    expect(published).toMatchObject({ kty: 'RSA', kid: first.signingKeys[0]?.kid });
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(published).not.toHaveProperty(member);
  });
});
