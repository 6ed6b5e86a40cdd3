import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Provider } from 'oidc-provider';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../../db/unavailable.ts';
import { IDP_MOUNT_PATH, type Idp } from './idp.ts';
import { INTERACTION_PREFIX, interactionRoutes } from './interactions.ts';

/** What Express sets when it mounts a sub-app; oidc-provider reads it to build its own URLs. */
type MountedRequest = IncomingMessage & { originalUrl?: string; baseUrl?: string };

/** True for the provider's own endpoints: /oidc, /oidc/… and /oidc?…, but not the interaction pages. */
export function isProviderUrl(url: string): boolean {
  const rest = url.slice(IDP_MOUNT_PATH.length);
  if (!url.startsWith(IDP_MOUNT_PATH) || !(rest === '' || rest.startsWith('/') || rest.startsWith('?'))) return false;
  return !url.startsWith(`${INTERACTION_PREFIX}/`);
}

/**
 * The provider (Koa, `proxy` on) reads the scheme, host and client address from X-Forwarded-*: its
 * discovery document, redirects and secure cookies follow them. Koa can only trust every sender or
 * none, so the headers it sees are replaced by what Fastify concluded under TRUST_PROXY: a client
 * that is no trusted proxy cannot make the provider name its host or claim https.
 */
function believeTrustedProxiesOnly(request: FastifyRequest): void {
  const headers = request.raw.headers;
  headers['x-forwarded-proto'] = request.protocol;
  headers['x-forwarded-host'] = request.host;
  headers['x-forwarded-for'] = request.ip;
}

/**
 * Serves the built-in OpenID provider under /oidc in this Fastify app. oidc-provider is a Koa app
 * that reads its own request bodies, so it takes over in an onRequest hook, before Fastify parses
 * anything, with the mount prefix stripped from the URL the way Express's app.use('/oidc', …) does.
 * The sign-in pages are ordinary Fastify routes.
 */
export async function registerIdp(app: FastifyInstance, idp: Idp): Promise<void> {
  let handler: Promise<ProviderHandler> | undefined;
  const providerHandler = () =>
    (handler ??= idp.openIdProvider().then(
      ({ provider }) => mountedHandler(app, provider),
      (error: unknown) => {
        handler = undefined;
        throw error;
      },
    ));
  app.addHook('onRequest', async (request, reply) => {
    const url = request.raw.url ?? '';
    if (!isProviderUrl(url)) return;
    reply.hijack();
    const raw: MountedRequest = request.raw;
    believeTrustedProxiesOnly(request);
    raw.originalUrl = url;
    raw.baseUrl = IDP_MOUNT_PATH;
    raw.url = url.slice(IDP_MOUNT_PATH.length) || '/';
    if (raw.url.startsWith('?')) raw.url = `/${raw.url}`;
    try {
      await (
        await providerHandler()
      )(raw, reply.raw);
    } catch (error) {
      // Koa answers its own errors; this only catches a failure of the hand-over itself.
      request.log.error({ err: error }, 'OpenID provider request failed');
      if (!reply.raw.headersSent) reply.raw.writeHead(500).end();
    }
  });

  await app.register(async (scope) => interactionRoutes(scope, idp), { prefix: INTERACTION_PREFIX });
}

type ProviderHandler = ReturnType<Provider['callback']>;

/** The provider's Koa handler, made once with the provider (which is made on its first request, see Idp). */
function mountedHandler(app: FastifyInstance, provider: Provider): ProviderHandler {
  // The provider answers its own errors with a generic 500; one caused by the database being away is
  // a 503 with Retry-After, as everywhere else.
  const databaseAway = new WeakSet<object>();
  provider.on('server_error', (ctx, error) => {
    if (isDatabaseUnavailable(error)) databaseAway.add(ctx);
    app.log.error({ err: error }, 'OpenID provider error');
  });
  provider.use(async (ctx, next) => {
    await next();
    if (!databaseAway.has(ctx)) return;
    ctx.status = 503;
    ctx.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  });
  // After every provider.use: the callback composes the middleware there is when it is made.
  return provider.callback();
}
