import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { IDP_ADMIN_CLAIM, IDP_CLIENT_ID, TestBrowser, useIdpTestApp } from '#test/idp-app.ts';
import { accounts } from '../../db/schema/index.ts';
import { hashPassword } from '../password.ts';
import { createTokenVerifier } from '../token-verifier.ts';

const PATHOLOGIST = {
  email: 'pathologist@example.test',
  password: 'correct horse battery',
  firstName: 'Haruka',
  lastName: 'Mori',
};
const SUPER_USER = {
  email: 'super@example.test',
  password: 'super secret words',
  firstName: 'Saki',
  lastName: 'Nakamura',
};

type Credentials = { email: string; password: string };

interface TokenResponse {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

describe('built-in OpenID provider', () => {
  const t = useIdpTestApp();
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    for (const person of [PATHOLOGIST, SUPER_USER]) {
      const [row] = await t.database.db
        .insert(accounts)
        .values({
          email: person.email,
          firstName: person.firstName,
          lastName: person.lastName,
          displayName: `${person.firstName} ${person.lastName}`,
          passwordHash: await hashPassword(person.password),
          isSuperUser: person === SUPER_USER,
          emailVerified: true,
        })
        .returning({ id: accounts.id });
      ids[person.email] = row!.id;
    }
  });

  const callback = () => `${t.publicUrl}/auth/callback`;

  /** Starts a code flow with PKCE the way oidc-client-ts does; returns the response to /oidc/auth. */
  async function authorize(browser: TestBrowser, extra: Record<string, string> = {}) {
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(8).toString('hex');
    const url = new URL(`${t.issuer}/auth`);
    const params = {
      client_id: IDP_CLIENT_ID,
      response_type: 'code',
      scope: 'openid profile email offline_access',
      redirect_uri: callback(),
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state,
      nonce: randomBytes(8).toString('hex'),
      ...extra,
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return { response: await browser.request(url.toString()), verifier, state };
  }

  /** authorize → sign-in page → credentials → back to the app with a code. */
  async function signIn(browser: TestBrowser, person: Credentials, extra: Record<string, string> = {}) {
    const { response, verifier, state } = await authorize(browser, extra);
    const loginPage = browser.location(response);
    const posted = await browser.request(`${loginPage.pathname}/login`, {
      form: { email: person.email, password: person.password, lang: 'ja' },
    });
    expect(posted.status).toBe(303);
    const back = await browser.request(browser.location(posted).toString());
    const redirect = browser.location(back);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(callback());
    expect(redirect.searchParams.get('state')).toBe(state);
    return { code: redirect.searchParams.get('code')!, verifier };
  }

  async function token(form: Record<string, string>): Promise<Response> {
    return fetch(`${t.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: IDP_CLIENT_ID, ...form }),
    });
  }

  /** The whole code flow; `extra` goes to both the authorization and the token request (e.g. `resource`). */
  async function signInForTokens(person: Credentials, extra: Record<string, string> = {}) {
    const browser = new TestBrowser(t.publicUrl);
    const { code, verifier } = await signIn(browser, person, extra);
    const response = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: callback(),
      code_verifier: verifier,
      ...extra,
    });
    expect(response.status).toBe(200);
    return { browser, tokens: (await response.json()) as TokenResponse };
  }

  const verifier = () => createTokenVerifier({ issuer: t.issuer, audience: t.audience, adminClaim: IDP_ADMIN_CLAIM });

  it('publishes its discovery document under /oidc with the configured issuer', async () => {
    const response = await fetch(`${t.issuer}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Record<string, unknown>;
    expect(document).toMatchObject({
      issuer: t.issuer,
      jwks_uri: `${t.issuer}/jwks`,
      authorization_endpoint: `${t.issuer}/auth`,
      token_endpoint: `${t.issuer}/token`,
      end_session_endpoint: `${t.issuer}/session/end`,
      revocation_endpoint: `${t.issuer}/token/revocation`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(document.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'offline_access']));
    const jwks = (await (await fetch(String(document.jwks_uri))).json()) as { keys: Record<string, string>[] };
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('shows a Japanese sign-in page by default, English on request, and remembers the choice', async () => {
    const browser = new TestBrowser(t.publicUrl);
    const loginPage = browser.location((await authorize(browser)).response);
    expect(loginPage.pathname).toMatch(/^\/oidc\/interaction\/[\w-]+$/);

    const japanese = await browser.request(loginPage.pathname);
    expect(japanese.status).toBe(200);
    expect(japanese.headers.get('content-type')).toContain('text/html');
    expect(japanese.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const ja = await japanese.text();
    expect(ja).toContain('<html lang="ja">');
    expect(ja).toContain('Pathology slides');
    expect(ja).toContain('メールアドレス');
    expect(ja).toContain('パスワード');
    expect(ja).toContain(`href="${loginPage.pathname}?lang=en"`);
    expect(ja).not.toContain('デモアカウント');

    const english = await (await browser.request(`${loginPage.pathname}?lang=en`)).text();
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('E-mail');
    expect(english).toContain('Password');
    expect(english).toContain('Cancel');
    // Remembered in a cookie for the next sign-in.
    expect(await (await browser.request(loginPage.pathname)).text()).toContain('<html lang="en">');
  });

  it('honours ui_locales from the authorization request', async () => {
    const browser = new TestBrowser(t.publicUrl);
    const loginPage = browser.location((await authorize(browser, { ui_locales: 'en-US ja' })).response);
    expect(await (await browser.request(loginPage.pathname)).text()).toContain('<html lang="en">');
  });

  it('signs a person in with the code flow and PKCE, issuing an API access token and an ID token', async () => {
    const { tokens } = await signInForTokens(PATHOLOGIST);
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.expires_in).toBeLessThanOrEqual(600);
    const verified = await verifier()(tokens.access_token);
    expect(verified).toMatchObject({ subject: ids[PATHOLOGIST.email], email: PATHOLOGIST.email, isSuperUser: false });
    expect(decodeJwt(tokens.access_token)).toMatchObject({ aud: t.audience, client_id: IDP_CLIENT_ID });

    const idToken = decodeJwt(tokens.id_token);
    expect(idToken).toMatchObject({
      iss: t.issuer,
      aud: IDP_CLIENT_ID,
      sub: ids[PATHOLOGIST.email],
      email: PATHOLOGIST.email,
      email_verified: true,
      given_name: PATHOLOGIST.firstName,
      family_name: PATHOLOGIST.lastName,
      name: 'Haruka Mori',
    });
    expect(idToken).not.toHaveProperty(IDP_ADMIN_CLAIM);
    expect(tokens.refresh_token).toEqual(expect.any(String));
  });

  it('accepts the API as an explicit resource indicator too, on every request', async () => {
    const { tokens } = await signInForTokens(PATHOLOGIST, { resource: t.audience });
    expect(await verifier()(tokens.access_token)).toMatchObject({ subject: ids[PATHOLOGIST.email] });
    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      resource: t.audience,
    });
    expect(refreshed.status).toBe(200);
    // Any other resource is refused, back at the app's redirect address.
    const browser = new TestBrowser(t.publicUrl);
    const { response } = await authorize(browser, { resource: 'https://elsewhere.test/' });
    expect(browser.location(response).searchParams.get('error')).toBe('invalid_target');
  });

  it('marks a super user with the admin claim in the access token and the ID token', async () => {
    const { tokens } = await signInForTokens(SUPER_USER);
    const verified = await verifier()(tokens.access_token);
    expect(verified).toMatchObject({ subject: ids[SUPER_USER.email], email: SUPER_USER.email, isSuperUser: true });
    expect(decodeJwt(tokens.id_token)[IDP_ADMIN_CLAIM]).toBe(true);
  });

  it('refuses a wrong password with a message, keeps the e-mail and issues no code', async () => {
    const browser = new TestBrowser(t.publicUrl);
    const loginPage = browser.location((await authorize(browser)).response);
    const refused = await browser.request(`${loginPage.pathname}/login`, {
      form: { email: PATHOLOGIST.email, password: 'wrong password', lang: 'ja' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('location')).toBeNull();
    const html = await refused.text();
    expect(html).toContain('メールアドレスまたはパスワードが正しくありません。');
    expect(html).toContain(`value="${PATHOLOGIST.email}"`);

    const english = await browser.request(`${loginPage.pathname}/login`, {
      form: { email: 'nobody@example.test', password: 'whatever', lang: 'en' },
    });
    expect(await english.text()).toContain('E-mail or password is incorrect.');
  });

  it('renews tokens with the refresh token, which rotates', async () => {
    const { tokens } = await signInForTokens(PATHOLOGIST);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
    expect(refreshed.status).toBe(200);
    const renewed = (await refreshed.json()) as TokenResponse;
    expect(renewed.access_token).not.toBe(tokens.access_token);
    expect(renewed.refresh_token).toEqual(expect.any(String));
    expect(await verifier()(renewed.access_token)).toMatchObject({ subject: ids[PATHOLOGIST.email] });
    expect(decodeJwt(renewed.access_token).aud).toBe(t.audience);

    const reused = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
    expect(reused.status).toBe(400);
  });

  it('renews silently with prompt=none while the session lasts, without showing the page', async () => {
    const { browser } = await signInForTokens(PATHOLOGIST);
    const { response, state } = await authorize(browser, { prompt: 'none' });
    const redirect = browser.location(response);
    expect(redirect.searchParams.get('code')).toEqual(expect.any(String));
    expect(redirect.searchParams.get('state')).toBe(state);
  });

  it('signs out from the app with its return address and state', async () => {
    const { browser, tokens } = await signInForTokens(PATHOLOGIST);
    const url = new URL(`${t.issuer}/session/end`);
    url.searchParams.set('id_token_hint', tokens.id_token);
    url.searchParams.set('post_logout_redirect_uri', `${t.publicUrl}/signed-out`);
    url.searchParams.set('state', 'bye');
    const page = await browser.request(url.toString());
    expect(page.status).toBe(200);
    const html = await page.text();
    // The app's own sign-out submits itself: the person already chose.
    const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    expect(html).toContain('name="logout" value="yes"');
    const confirmed = await browser.request(action!, { form: { xsrf: xsrf!, logout: 'yes' } });
    expect(confirmed.status).toBe(303);
    const back = browser.location(confirmed);
    expect(`${back.origin}${back.pathname}`).toBe(`${t.publicUrl}/signed-out`);
    expect(back.searchParams.get('state')).toBe('bye');

    // The session is gone: a silent renewal now needs a sign-in, and the refresh token is dead.
    const { response } = await authorize(browser, { prompt: 'none' });
    expect(browser.location(response).searchParams.get('error')).toBe('login_required');
    expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! })).status).toBe(400);
  });

  it('sends "Cancel" back to the app as access_denied', async () => {
    const browser = new TestBrowser(t.publicUrl);
    const loginPage = browser.location((await authorize(browser)).response);
    const aborted = await browser.request(`${loginPage.pathname}/abort`);
    const back = await browser.request(browser.location(aborted).toString());
    const redirect = browser.location(back);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(callback());
    expect(redirect.searchParams.get('error')).toBe('access_denied');
  });

  it('shows the expired page for an interaction this browser does not own', async () => {
    const owner = new TestBrowser(t.publicUrl);
    const loginPage = owner.location((await authorize(owner)).response);
    const stranger = new TestBrowser(t.publicUrl);
    const posted = await stranger.request(`${loginPage.pathname}/login`, {
      form: { email: PATHOLOGIST.email, password: PATHOLOGIST.password },
    });
    expect(posted.status).toBe(400);
    expect(posted.headers.get('location')).toBeNull();
    expect(await posted.text()).toContain('アプリに戻る');
  });

  it('leaves other paths to the app', async () => {
    expect((await fetch(`${t.publicUrl}/oidcx`)).status).toBe(404);
    expect((await fetch(`${t.publicUrl}/api/v1/health`)).status).not.toBe(404);
    const docs = (await (await fetch(`${t.publicUrl}/api/docs/json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(docs.paths).filter((path) => path.startsWith('/oidc'))).toEqual([]);
  });
});
