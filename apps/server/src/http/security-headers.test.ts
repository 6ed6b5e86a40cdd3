import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useIdpTestApp } from '#test/idp-app.ts';
import { convertedSlide } from '#test/image-fixtures.ts';
import { useTestApp } from '#test/test-app.ts';
import { slidePath } from '#test/testdata.ts';

type Headers = Record<string, string | string[] | number | undefined>;

/** A built web app's shape: index.html and a fingerprinted asset. */
function fakeWebDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  return dist;
}

/** The directives of a Content-Security-Policy header, by name. */
function directives(headers: Headers): Record<string, string> {
  const policy = String(headers['content-security-policy'] ?? '');
  return Object.fromEntries(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name, values.join(' ')]),
  );
}

const expectNosniff = (headers: Headers, what: string) =>
  expect({ what, nosniff: headers['x-content-type-options'] }).toEqual({ what, nosniff: 'nosniff' });

describe('security headers', () => {
  const dist = fakeWebDist();
  const t = useTestApp({ webDist: dist });
  let tileUrl: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    await make.join(await make.account({ subject: 'viewer' }), group, 'read_only');
    const { layerId } = await convertedSlide(
      t,
      await make.case({ ownerOrganizationId: group }),
      slidePath('CMU-1-Small-Region.svs'),
    );
    tileUrl = `/iiif/2/${layerId}/0,0,512,512/512,/0/default.jpg`;
  }, 60_000);
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  const get = async (url: string, sub?: string) =>
    t.app.inject({ method: 'GET', url, headers: sub ? await t.auth(sub) : {} });

  it("sends the app's policy with the app's HTML: nothing may frame it, scripts only from this origin", async () => {
    for (const url of ['/', '/cases/123']) {
      const response = await get(url);
      expect(response.body).toContain('<title>app</title>');
      expectNosniff(response.headers, url);
      expect(response.headers['referrer-policy']).toBe('same-origin');
      const csp = directives(response.headers);
      expect(csp).toMatchObject({
        'default-src': "'self'",
        'script-src': "'self'",
        'object-src': "'none'",
        'frame-ancestors': "'none'",
        'img-src': "'self' data: blob:",
        'worker-src': "'self' blob:",
      });
      // The identity provider is reached by fetch (discovery, tokens) and, without a refresh token, in a frame.
      expect(csp['connect-src']).toBe("'self' http://issuer.test");
      expect(csp['frame-src']).toBe("'self' http://issuer.test");
      expect(csp).not.toHaveProperty('upgrade-insecure-requests');
    }
  });

  it("lets only the app itself frame silent renewal's callback page", async () => {
    const response = await get('/auth/silent-callback?code=x&state=y');
    expect(directives(response.headers)['frame-ancestors']).toBe("'self'");
  });

  it('sends nosniff and the policy with assets, API answers, errors and 404s', async () => {
    const responses = {
      asset: await get('/assets/app-abc123.js'),
      health: await get('/api/v1/health'),
      me: await get('/api/v1/accounts/me', 'viewer'),
      unauthorized: await get('/api/v1/accounts/me'),
      notFound: await get('/api/v1/no-such-thing', 'viewer'),
      invalid: await t.app.inject({
        method: 'POST',
        url: '/api/v1/cases/search',
        headers: { ...(await t.auth('viewer')), 'content-type': 'application/json' },
        payload: '{"query": 1}',
      }),
    };
    expect(Object.values(responses).map((response) => response.statusCode)).toEqual([200, 200, 200, 401, 404, 422]);
    for (const [what, response] of Object.entries(responses)) {
      expectNosniff(response.headers, what);
      expect(directives(response.headers)['frame-ancestors']).toBe("'none'");
      expect(response.headers['referrer-policy']).toBe('same-origin');
    }
  });

  it('sends nosniff with tiles, which other sites may embed', async () => {
    const tile = await get(tileUrl, 'viewer');
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-type']).toBe('image/jpeg');
    expectNosniff(tile.headers, 'tile');
    expect(tile.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const missing = await get('/iiif/2/00000000-0000-4000-8000-000000000000/info.json', 'viewer');
    expect(missing.statusCode).toBe(404);
    expectNosniff(missing.headers, 'missing tile');
  });

  it('sends Swagger UI its own policy, which frames nothing either', async () => {
    const page = await get('/api/docs/');
    expect(page.headers['content-type']).toContain('text/html');
    const script = await get('/api/docs/static/swagger-ui-bundle.js');
    expect(script.statusCode).toBe(200);
    for (const [what, response] of Object.entries({ page, script })) {
      expectNosniff(response.headers, what);
      expect(directives(response.headers)).toMatchObject({
        'script-src': "'self'",
        'connect-src': "'self'",
        'frame-ancestors': "'none'",
      });
    }
  });
});

describe('security headers of the built-in sign-in', () => {
  const t = useIdpTestApp();

  it("keeps the sign-in pages' own strict policy, with nosniff on the provider's pages and answers", async () => {
    const expired = await fetch(`${t.publicUrl}/oidc/interaction/unknown`);
    expect(expired.headers.get('content-type')).toContain('text/html');
    const error = await fetch(`${t.publicUrl}/oidc/auth?client_id=unknown`);
    expect(error.status).toBe(400);
    const discovery = await fetch(`${t.publicUrl}/oidc/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    for (const [what, response] of Object.entries({ expired, error })) {
      expect({ what, csp: response.headers.get('content-security-policy') }).toEqual({
        what,
        csp: expect.stringMatching(/^default-src 'none'; .*frame-ancestors 'none'$/) as unknown,
      });
    }
    for (const [what, response] of Object.entries({ expired, error, discovery })) {
      expect({ what, nosniff: response.headers.get('x-content-type-options') }).toEqual({ what, nosniff: 'nosniff' });
    }
  });
});
