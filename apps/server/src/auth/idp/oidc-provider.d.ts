/**
 * Narrow local types for oidc-provider 9, which ships none (and @types/oidc-provider lags behind
 * its major versions). Only what the built-in provider uses is declared; names follow the
 * library's documentation so a future official typing can replace this file.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type UnknownObject = Record<string, unknown>;

  export interface ClientMetadata {
    client_id: string;
    client_name?: string;
    application_type?: 'web' | 'native';
    token_endpoint_auth_method?: 'none';
    grant_types?: string[];
    response_types?: string[];
    redirect_uris: string[];
    post_logout_redirect_uris?: string[];
    scope?: string;
  }

  export interface Client {
    clientId: string;
    grantTypeAllowed(grantType: string): boolean;
  }

  export interface ResourceServer {
    readonly scopes: Set<string>;
  }

  export interface ResourceServerInfo {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'opaque' | 'jwt';
  }

  export interface Session {
    accountId?: string;
    grantIdFor(clientId: string): string | undefined;
  }

  export interface Grant {
    readonly jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(indicator: string, scope: string): void;
    save(ttl?: number): Promise<string>;
  }

  export interface GrantStatic {
    new (properties: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  /** A token the provider is about to issue (AccessToken or ClientCredentials) in extraTokenClaims. */
  export interface IssuedToken {
    kind: string;
    accountId?: string;
  }

  export interface OIDCContext {
    readonly params: UnknownObject;
    readonly client?: Client;
    readonly session?: Session;
    readonly account?: Account;
    readonly result?: { consent?: { grantId?: string } };
    readonly entities: { RotatedRefreshToken?: { remainingTTL: number }; IdTokenHint?: unknown };
    readonly requestParamOIDCScopes: Set<string>;
    readonly requestParamClaims: Set<string>;
    readonly requestParamScopes: Set<string>;
    readonly resourceServers: Record<string, ResourceServer>;
    readonly provider: Provider;
  }

  /** The Koa context oidc-provider hands to configuration functions. */
  export interface KoaContextWithOIDC {
    oidc: OIDCContext;
    status: number;
    type: string;
    body: string;
    get(header: string): string;
    set(header: string, value: string): void;
  }

  export type ClaimValue = string | boolean | number | undefined;

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, ClaimValue> & { sub: string }>;
  }

  export interface JsonWebKey {
    kty: string;
    kid?: string;
    [member: string]: string | undefined;
  }

  export interface AdapterPayload extends UnknownObject {
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export type Ttl = number | ((ctx: KoaContextWithOIDC | undefined, token: unknown, client: Client) => number);

  export interface CookieOptions {
    httpOnly?: boolean;
    sameSite?: 'lax' | 'strict' | 'none';
    secure?: boolean;
    path?: string;
  }

  export interface Configuration {
    adapter: (model: string) => Adapter;
    clients: ClientMetadata[];
    jwks: { keys: JsonWebKey[] };
    cookies: { keys: string[]; long: CookieOptions; short: CookieOptions };
    claims: Record<string, (string | null)[] | null>;
    scopes: string[];
    conformIdTokenClaims: boolean;
    findAccount(ctx: KoaContextWithOIDC, sub: string, token?: unknown): Promise<Account | undefined>;
    loadExistingGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined>;
    issueRefreshToken(ctx: KoaContextWithOIDC, client: Client, code: unknown): Promise<boolean>;
    extraTokenClaims(ctx: KoaContextWithOIDC, token: IssuedToken): Promise<UnknownObject | undefined>;
    clientBasedCORS(ctx: KoaContextWithOIDC, origin: string, client: Client): boolean;
    interactions: { url(ctx: KoaContextWithOIDC, interaction: { uid: string }): Promise<string> | string };
    pkce: { required(ctx: KoaContextWithOIDC, client: Client): boolean };
    renderError(
      ctx: KoaContextWithOIDC,
      out: { error: string; error_description?: string },
      error: Error,
    ): Promise<void>;
    ttl: Partial<Record<'AccessToken' | 'IdToken' | 'Session' | 'Grant' | 'Interaction' | 'RefreshToken', Ttl>>;
    features: {
      devInteractions: { enabled: boolean };
      revocation: { enabled: boolean };
      userinfo: { enabled: boolean };
      rpInitiatedLogout: {
        enabled: boolean;
        logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void>;
        postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void>;
      };
      resourceIndicators: {
        enabled: boolean;
        defaultResource(ctx: KoaContextWithOIDC, client: Client, oneOf?: string[]): Promise<string | undefined>;
        useGrantedResource(ctx: KoaContextWithOIDC, model: unknown): Promise<boolean>;
        getResourceServerInfo(ctx: KoaContextWithOIDC, indicator: string, client: Client): Promise<ResourceServerInfo>;
      };
    };
  }

  export interface Interaction {
    readonly uid: string;
    readonly prompt: { name: string; reasons: string[] };
    readonly params: UnknownObject;
    readonly returnTo: string;
  }

  export type InteractionResult =
    { login: { accountId: string; remember?: boolean } } | { error: string; error_description?: string };

  export class Provider {
    constructor(issuer: string, configuration: Configuration);
    readonly issuer: string;
    proxy: boolean;
    readonly Grant: GrantStatic;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    /** Stores the result and returns the URL that resumes the authorization request. */
    interactionResult(req: IncomingMessage, res: ServerResponse, result: InteractionResult): Promise<string>;
    on(event: 'server_error', listener: (ctx: KoaContextWithOIDC, error: Error) => void): this;
  }

  export class OIDCProviderError extends Error {
    readonly error: string;
    readonly error_description?: string;
    readonly status: number;
  }

  export const errors: {
    OIDCProviderError: typeof OIDCProviderError;
    SessionNotFound: typeof OIDCProviderError;
    InvalidTarget: new (description?: string) => OIDCProviderError;
  };

  export default Provider;
}
