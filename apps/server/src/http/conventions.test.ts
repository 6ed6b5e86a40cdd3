import { DEFAULT_MAX_CASE_IMAGES } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '#test/test-app.ts';

describe('API conventions', () => {
  const t = useTestApp();

  it('answers an unknown API path with a JSON 404 message', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing', headers: await t.auth('u1') });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found' });
  });

  it('rejects malformed JSON with a message, not a stack', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/screen_settings/save',
      headers: { ...(await t.auth('u1')), 'content-type': 'application/json' },
      payload: '{"items": [',
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json())).toEqual(['message']);
  });

  it('parses application/merge-patch+json bodies as JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/screen_settings/save',
      headers: { ...(await t.auth('u1')), 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ items: [{ settingType: 'drawing_visibility', value: { visibility: 'public' } }] }),
    });
    expect(response.statusCode).toBe(200);
  });

  it('publishes an OpenAPI document generated from the contract schemas, with its UI', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(document.openapi).toMatch(/^3\./);
    const operations = Object.values(document.paths as Record<string, Record<string, { operationId: string }>>)
      .flatMap((methods) => Object.values(methods))
      .map((operation) => operation.operationId);
    expect(operations).toEqual(
      expect.arrayContaining(['getHealth', 'getScreenSetting', 'listScreenSettings', 'saveScreenSettings']),
    );
    const save = document.paths['/api/v1/screen_settings/save'].post;
    expect(JSON.stringify(save.requestBody)).toContain('case_list');
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });
});

describe('GET auth/config', () => {
  const t = useTestApp();

  it('tells the web app, without a token, where and how to sign in', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/auth/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      authority: 'http://issuer.test/oidc',
      clientId: 'pathology-web',
      scope: 'openid profile email offline_access',
      // The server's MAX_CASE_IMAGES: the case's images warn from this count on.
      maxCaseImages: DEFAULT_MAX_CASE_IMAGES,
    });
    // No HELP_URL: the header shows no help icon rather than a link to nowhere.
    expect(response.json()).not.toHaveProperty('helpUrl');
  });
});

describe('GET auth/config with HELP_URL', () => {
  const t = useTestApp({ helpUrl: 'https://help.hospital.example/pathology' });

  it("names the operator's help pages, which the header's help icon opens", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/auth/config' });
    expect(response.json()).toMatchObject({ helpUrl: 'https://help.hospital.example/pathology' });
  });
});
