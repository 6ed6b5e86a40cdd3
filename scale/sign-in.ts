import { createHash, randomBytes } from 'node:crypto';

const CLIENT_ID = 'pathology-web';

/** A cookie jar for one host, following no redirect on its own: enough for the sign-in pages. */
class Browser {
  private readonly cookies = new Map<string, string>();
  /** The API process behind nginx that answered each request (nginx's X-Upstream). */
  readonly upstreams: string[] = [];

  constructor(private readonly baseUrl: string) {}

  async request(url: string, form?: Record<string, string>): Promise<Response> {
    const headers: Record<string, string> = { accept: 'text/html' };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (form != null) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(new URL(url, this.baseUrl), {
      method: form == null ? 'GET' : 'POST',
      headers,
      body: form == null ? undefined : new URLSearchParams(form).toString(),
      redirect: 'manual',
    });
    this.upstreams.push(response.headers.get('x-upstream') ?? '');
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const index = pair.indexOf('=');
      this.cookies.set(pair.slice(0, index).trim(), pair.slice(index + 1).trim());
    }
    return response;
  }

  location(response: Response): URL {
    const location = response.headers.get('location');
    if (location == null) throw new Error(`expected a redirect, got ${response.status}`);
    return new URL(location, this.baseUrl);
  }
}

/**
 * Signs in at the built-in provider of the app at `baseUrl` as the web app does (code flow with
 * PKCE): authorization request, sign-in page, password, code, token. Returns the access token and
 * the API processes that answered the steps in the browser.
 */
export async function signIn(
  baseUrl: string,
  email: string,
  password: string,
): Promise<{ token: string; upstreams: string[] }> {
  const browser = new Browser(baseUrl);
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = `${baseUrl}/auth/callback`;
  const authorize = new URL(`${baseUrl}/oidc/auth`);
  const params = {
    client_id: CLIENT_ID,
    response_type: 'code',
    scope: 'openid profile email offline_access',
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
  };
  for (const [name, value] of Object.entries(params)) authorize.searchParams.set(name, value);
  const loginPage = browser.location(await browser.request(authorize.toString()));
  const posted = await browser.request(`${loginPage.pathname}/login`, { email, password, lang: 'en' });
  if (posted.status !== 303) throw new Error(`sign-in refused: ${posted.status}`);
  const back = browser.location(await browser.request(browser.location(posted).toString()));
  const code = back.searchParams.get('code');
  if (code == null) throw new Error(`no code in ${back.toString()}`);
  const token = await fetch(`${baseUrl}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: CLIENT_ID,
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }),
  });
  if (token.status !== 200) throw new Error(`token request failed: ${token.status} ${await token.text()}`);
  return { token: ((await token.json()) as { access_token: string }).access_token, upstreams: browser.upstreams };
}
