import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdpApp, type IdpAppInstance } from '#test/idp-app.ts';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';

const SPOOFED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' };

async function discovery(instance: IdpAppInstance): Promise<Record<string, unknown>> {
  const response = await fetch(`${instance.issuer}/.well-known/openid-configuration`, { headers: SPOOFED });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('the built-in OpenID provider behind TRUST_PROXY', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('ignores X-Forwarded-Proto/-Host from a sender TRUST_PROXY does not name', async () => {
    const direct = await startIdpApp(database, { trustProxy: false });
    try {
      const document = await discovery(direct);
      expect(document.authorization_endpoint).toBe(`${direct.issuer}/auth`);
      expect(JSON.stringify(document)).not.toContain('evil.example');
    } finally {
      await direct.app.close();
    }
  });

  it('follows them from a trusted proxy (here on loopback)', async () => {
    const proxied = await startIdpApp(database, { trustProxy: ['loopback'] });
    try {
      const document = await discovery(proxied);
      expect(document.authorization_endpoint).toBe('https://evil.example/oidc/auth');
    } finally {
      await proxied.app.close();
    }
  });
});
