import type { Configuration, errors, Grant, KoaContextWithOIDC, Provider } from 'oidc-provider';
import type { Db } from '../../db/client.ts';
import { DEMO_ACCOUNTS } from '../../db/seed/demo-accounts.ts';
import { createIdpAccounts, type IdpAccounts } from './accounts.ts';
import { createOidcAdapterFactory } from './adapter.ts';
import { loadOrCreateIdpKeys, publicJwks, type IdpKeys } from './keys.ts';
import { createProviderPages } from './provider-pages.ts';
import { createSignInThrottle, type SignInThrottle } from './sign-in-throttle.ts';

/** Where the provider lives inside the app; the issuer's path must end with it. */
export const IDP_MOUNT_PATH = '/oidc';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const SESSION_TTL = 8 * HOUR;

/** The OpenID scopes the provider knows; any other requested scope belongs to a resource server (the API). */
const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'];

export interface IdpOptions {
  db: Db;
  /** Address of the app (web and API); the client's redirect addresses are derived from it. */
  publicUrl: string;
  issuer: string;
  clientId: string;
  /** Resource indicator of the API: the `aud` of every access token. */
  audience: string;
  adminClaim: string;
  /** Shows the demo accounts and their passwords on the sign-in page. */
  demoAccounts: boolean;
  /** scrypt's cost N of the password hashes it makes (PASSWORD_SCRYPT_N); password.ts's default when absent. */
  scryptN?: number;
  onError?: (error: unknown, message: string) => void;
}

export interface DemoAccount {
  key: string;
  email: string;
  password: string;
  description: string;
}

/** oidc-provider's provider for this installation, and its error classes. */
export interface OpenIdProvider {
  provider: Provider;
  errors: typeof errors;
}

export interface Idp {
  /**
   * The provider, made on its first request: oidc-provider, Koa and their packages are about a second of a start's
   * CPU and tens of MiB of memory, which an API process that has signed no one in yet need not pay. The keys, the
   * accounts and the throttle are ready from the start, as the API verifies tokens with the keys.
   */
  openIdProvider(): Promise<OpenIdProvider>;
  accounts: IdpAccounts;
  signInThrottle: SignInThrottle;
  publicUrl: string;
  demoAccounts: readonly DemoAccount[];
  /** The public signing keys, to verify this provider's tokens without an HTTP round trip to itself. */
  jwks: ReturnType<typeof publicJwks>;
}

/**
 * The built-in OpenID provider: one public client (the web app, code flow with PKCE), JWT access
 * tokens for the API as a resource indicator, accounts from the accounts table, state in PostgreSQL.
 */
export async function createIdp(options: IdpOptions): Promise<Idp> {
  if (!new URL(options.issuer).pathname.replace(/\/$/, '').endsWith(IDP_MOUNT_PATH)) {
    throw new Error(`The built-in OpenID provider is served at ${IDP_MOUNT_PATH}; its issuer must end with it`);
  }
  // Resource indicators must be absolute URIs (RFC 8707), so the audience doubles as one.
  if (!URL.canParse(options.audience))
    throw new Error('OIDC_AUDIENCE must be an absolute URL with the built-in provider');
  const keys = await loadOrCreateIdpKeys(options.db);
  const accounts = createIdpAccounts(options.db, { adminClaim: options.adminClaim, scryptN: options.scryptN });
  let made: Promise<OpenIdProvider> | undefined;
  const openIdProvider = () =>
    (made ??= makeProvider(options, keys, accounts).catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
  return {
    openIdProvider,
    accounts,
    signInThrottle: createSignInThrottle(options.db, {
      // A secret of its own would need storing; the oldest cookie secret is already one per installation.
      secret: `sign-in-throttle:${keys.cookieKeys.at(-1)!}`,
      onError: (error) => options.onError?.(error, 'expired sign-in throttle rows could not be deleted'),
    }),
    publicUrl: options.publicUrl,
    demoAccounts: options.demoAccounts ? DEMO_ACCOUNTS : [],
    jwks: publicJwks(keys),
  };
}

async function makeProvider(options: IdpOptions, keys: IdpKeys, accounts: IdpAccounts): Promise<OpenIdProvider> {
  // Loaded on first use: installations with an external provider never load it (nor its runtime warnings).
  const { Provider, errors } = await import('oidc-provider');
  const pages = createProviderPages({ appUrl: `${options.publicUrl}/` });
  const appOrigin = new URL(options.publicUrl).origin;
  const secureCookies = new URL(options.publicUrl).protocol === 'https:';

  const configuration: Configuration = {
    adapter: createOidcAdapterFactory(options.db, {
      onError: (error) => options.onError?.(error, 'expired OpenID provider data could not be deleted'),
    }),
    clients: [
      {
        client_id: options.clientId,
        client_name: 'Pathology slides',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: ['callback', 'popup-callback', 'silent-callback'].map(
          (page) => `${options.publicUrl}/auth/${page}`,
        ),
        post_logout_redirect_uris: [`${options.publicUrl}/signed-out`],
        scope: 'openid profile email offline_access',
      },
    ],
    jwks: { keys: keys.signingKeys },
    cookies: {
      keys: keys.cookieKeys,
      // The session cookie only matters to the provider, so it stays off API and tile requests.
      long: { httpOnly: true, sameSite: 'lax', secure: secureCookies, path: IDP_MOUNT_PATH },
      short: { httpOnly: true, sameSite: 'lax', secure: secureCookies },
    },
    scopes: OIDC_SCOPES,
    claims: {
      acr: null,
      auth_time: null,
      iss: null,
      sid: null,
      // Listed under openid so the web app learns super users from the ID token whatever the scopes.
      openid: ['sub', options.adminClaim],
      profile: ['name', 'given_name', 'family_name'],
      email: ['email', 'email_verified'],
    },
    // Access tokens belong to the API (not the userinfo endpoint), so the ID token carries the profile.
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => accounts.findAccount(sub),
    loadExistingGrant: grantEverythingRequested,
    // oidc-provider ties refresh tokens to offline_access, which OpenID honours only with prompt=consent
    // (a consent screen this first-party app never shows). The app's refresh tokens instead live and
    // die with the sign-in session: signing out ends them.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Only tokens of a signed-in person carry an account; client-credentials tokens are never issued here.
    extraTokenClaims: async (_ctx, token) =>
      'accountId' in token && token.accountId != null ? accounts.accessTokenClaims(token.accountId) : undefined,
    clientBasedCORS: (_ctx, origin) => origin === appOrigin,
    interactions: { url: (_ctx, interaction) => `${IDP_MOUNT_PATH}/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    renderError: pages.renderError,
    ttl: {
      AccessToken: 10 * MINUTE,
      IdToken: 10 * MINUTE,
      Session: SESSION_TTL,
      Grant: SESSION_TTL,
      Interaction: HOUR,
      // Rotation hands out a new refresh token on every use; it inherits the remaining lifetime, so
      // a sign-in lasts one working day however often the app refreshes.
      RefreshToken: (ctx) => Math.max(1, ctx?.oidc.entities.RotatedRefreshToken?.remainingTTL ?? SESSION_TTL),
    },
    // Sent by the web app after a sign-out so the sign-in page can say so; other providers ignore it.
    extraParams: ['signed_out'],
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: pages.logoutSource,
        postLogoutSuccessSource: pages.postLogoutSuccessSource,
      },
      resourceIndicators: {
        enabled: true,
        // Requests without `resource` (the usual oidc-client-ts login) still get an API token.
        defaultResource: async () => options.audience,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== options.audience) throw new errors.InvalidTarget();
          return {
            scope: 'openid profile email',
            audience: options.audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 10 * MINUTE,
          };
        },
      },
    },
  };

  const provider = new Provider(options.issuer, configuration);
  // Behind a TLS-terminating proxy the provider must see X-Forwarded-Proto to set secure cookies. Koa
  // can only trust every sender or none, so it trusts all, and mount.ts hands it only the forwarded
  // headers Fastify believed under TRUST_PROXY.
  provider.proxy = true;
  return { provider, errors };
}

/**
 * The web app is first-party: no consent screen. The grant of the session (or a new one) is
 * extended with whatever the request asks for, so oidc-provider's consent checks never prompt.
 */
async function grantEverythingRequested(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const { oidc } = ctx;
  const accountId = oidc.account?.accountId;
  const clientId = oidc.client?.clientId;
  if (accountId == null || clientId == null) return undefined;
  const grantId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(clientId);
  const existing = grantId == null ? undefined : await oidc.provider.Grant.find(grantId);
  const grant = existing?.accountId === accountId ? existing : new oidc.provider.Grant({ accountId, clientId });
  grant.addOIDCScope([...oidc.requestParamScopes].filter((name) => OIDC_SCOPES.includes(name)).join(' '));
  if (oidc.requestParamClaims.size > 0) grant.addOIDCClaims([...oidc.requestParamClaims]);
  for (const [indicator, resourceServer] of Object.entries(oidc.resourceServers ?? {})) {
    const served = resourceServer.scope.split(' ');
    const scope = [...oidc.requestParamScopes].filter((name) => served.includes(name));
    if (scope.length > 0) grant.addResourceScope(indicator, scope.join(' '));
  }
  await grant.save();
  return grant;
}
