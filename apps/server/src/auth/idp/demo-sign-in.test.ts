import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { IDP_CLIENT_ID, TestBrowser, useIdpTestApp } from '#test/idp-app.ts';
import { DEMO_ACCOUNTS } from '../../db/seed/demo-accounts.ts';
import { seedDemo } from '../../db/seed/demo.ts';

describe('built-in OpenID provider on a demo installation', () => {
  const t = useIdpTestApp({ demoAccounts: true });

  beforeAll(async () => {
    await seedDemo(t.database.db);
  });

  async function loginPage(browser: TestBrowser): Promise<string> {
    const url = new URL(`${t.issuer}/auth`);
    const verifier = randomBytes(32).toString('base64url');
    url.search = new URLSearchParams({
      client_id: IDP_CLIENT_ID,
      response_type: 'code',
      scope: 'openid profile email',
      redirect_uri: `${t.publicUrl}/auth/popup-callback`,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'demo',
    }).toString();
    return browser.location(await browser.request(url.toString())).pathname;
  }

  it('lists every demo account with its password and a button that fills the form', async () => {
    const browser = new TestBrowser(t.publicUrl);
    const path = await loginPage(browser);
    const response = await browser.request(path);
    const html = await response.text();
    expect(html).toContain('デモアカウント');
    for (const account of DEMO_ACCOUNTS) {
      expect(html).toContain(`data-email="${account.email}" data-password="${account.password}"`);
    }
    expect(html).toContain('スーパーユーザー');
    // The fill-in script runs under the page's Content-Security-Policy, allowed by its hash only.
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[^']+'/);

    const english = await (await browser.request(`${path}?lang=en`)).text();
    expect(english).toContain('Demo accounts');
    expect(english).toContain(DEMO_ACCOUNTS[0].description);
  });

  it('signs in with a demo account and returns to the popup callback', async () => {
    const browser = new TestBrowser(t.publicUrl);
    const path = await loginPage(browser);
    const account = DEMO_ACCOUNTS[1];
    const posted = await browser.request(`${path}/login`, {
      form: { email: account.email, password: account.password },
    });
    const back = browser.location(await browser.request(browser.location(posted).toString()));
    expect(back.pathname).toBe('/auth/popup-callback');
    expect(back.searchParams.get('code')).toEqual(expect.any(String));
  });
});
