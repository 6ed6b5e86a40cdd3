import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Interaction } from 'oidc-provider';
import { asLanguage, DEMO_ROLE_JA, languageCookie, pickLanguage, texts, type Language } from './i18n.ts';
import { IDP_MOUNT_PATH, type Idp } from './idp.ts';
import type { RenderedPage } from './layout.ts';
import { renderExpiredPage, renderLoginPage } from './login-page.ts';

export const INTERACTION_PREFIX = `${IDP_MOUNT_PATH}/interaction`;

/** A sign-in form is a few hundred bytes; anything near this is not one. */
const FORM_BODY_LIMIT = 16 * 1024;

/**
 * Fastify has no form parser; the provider's pages (sign-in, invitation) post small flat forms, read as
 * field → value within the scope they are registered in.
 */
export function registerFormParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
}

/**
 * The provider's user-facing steps as Fastify routes under /oidc/interaction/:uid: the sign-in
 * page, its form, and "Cancel". oidc-provider binds the uid to a signed, SameSite=Lax cookie of
 * this browser, so a form posted from another site (or for another browser's uid) finds no
 * interaction: that is the CSRF protection, and a hidden token would add nothing to it.
 */
export async function interactionRoutes(app: FastifyInstance, idp: Idp): Promise<void> {
  const secureCookies = idp.publicUrl.startsWith('https:');

  registerFormParser(app);

  /** The interaction this browser is in, when it is the one in the address; else the "expired" page is sent. */
  async function current(
    request: FastifyRequest,
    reply: FastifyReply,
    language: Language,
  ): Promise<Interaction | undefined> {
    const oidc = await idp.openIdProvider();
    let details: Interaction | undefined;
    try {
      details = await oidc.provider.interactionDetails(request.raw, reply.raw);
    } catch (error) {
      if (!(error instanceof oidc.errors.SessionNotFound)) throw error;
    }
    if (details != null && details.uid === field(request.params, 'uid')) return details;
    sendPage(reply.status(400), renderExpiredPage(language, `${idp.publicUrl}/`));
    return undefined;
  }

  function loginPage(
    details: Interaction,
    language: Language,
    extra: { email?: string; error?: string; notice?: string } = {},
  ) {
    return renderLoginPage({
      language,
      interactionPath: `${INTERACTION_PREFIX}/${encodeURIComponent(details.uid)}`,
      ...extra,
      demoAccounts: idp.demoAccounts.map((account) => ({
        email: account.email,
        password: account.password,
        role: language === 'ja' ? (DEMO_ROLE_JA[account.key] ?? account.description) : account.description,
      })),
    });
  }

  app.get('/:uid', { schema: { hide: true } }, async (request, reply) => {
    const choice = asLanguage(field(request.query, 'lang'));
    const cookieLanguage = pickLanguage(choice, request.headers.cookie, undefined);
    const details = await current(request, reply, cookieLanguage);
    if (details == null) return reply;
    if (details.prompt.name !== 'login') return finishWithError(request, reply, 'interaction_required');
    const language = pickLanguage(choice, request.headers.cookie, details.params.ui_locales);
    if (choice != null) reply.header('set-cookie', languageCookie(choice, secureCookies));
    const signedOut = details.params['signed_out'] === '1';
    return sendPage(reply, loginPage(details, language, signedOut ? { notice: texts(language).signedOut } : {}));
  });

  app.post('/:uid/login', { schema: { hide: true } }, async (request, reply) => {
    const email = (field(request.body, 'email') ?? '').trim();
    const password = field(request.body, 'password') ?? '';
    const choice = field(request.body, 'lang');
    const details = await current(request, reply, pickLanguage(choice, request.headers.cookie, undefined));
    if (details == null) return reply;
    const language = pickLanguage(choice, request.headers.cookie, details.params.ui_locales);
    const t = texts(language);

    // request.ip is the proxy's X-Forwarded-For only when TRUST_PROXY trusts the proxy (Fastify's trustProxy).
    const throttled = await idp.signInThrottle.attempt(email, request.ip);
    if (throttled != null) {
      request.log.info({ interaction: details.uid }, 'built-in sign-in throttled');
      const error = t.tooManyAttempts(throttled.retryAfterSeconds);
      reply.status(429).header('retry-after', String(throttled.retryAfterSeconds));
      return sendPage(reply, loginPage(details, language, { email, error }));
    }
    const accountId = email === '' || password === '' ? undefined : await idp.accounts.authenticate(email, password);
    if (accountId == null) {
      await idp.signInThrottle.failed(email, request.ip);
      request.log.info({ interaction: details.uid }, 'built-in sign-in refused');
      return sendPage(reply.status(401), loginPage(details, language, { email, error: t.invalidCredentials }));
    }
    await idp.signInThrottle.succeeded(email, request.ip);
    const { provider } = await idp.openIdProvider();
    const returnTo = await provider.interactionResult(request.raw, reply.raw, { login: { accountId } });
    return reply.redirect(returnTo, 303);
  });

  app.get('/:uid/abort', { schema: { hide: true } }, async (request, reply) => {
    const details = await current(request, reply, pickLanguage(undefined, request.headers.cookie, undefined));
    if (details == null) return reply;
    return finishWithError(request, reply, 'access_denied', 'End-User aborted interaction');
  });

  /** Ends the interaction; oidc-provider sends the error to the client's redirect address. */
  async function finishWithError(
    request: FastifyRequest,
    reply: FastifyReply,
    error: string,
    description?: string,
  ): Promise<FastifyReply> {
    const result = description == null ? { error } : { error, error_description: description };
    const { provider } = await idp.openIdProvider();
    const returnTo = await provider.interactionResult(request.raw, reply.raw, result);
    return reply.redirect(returnTo, 303);
  }
}

export function sendPage(reply: FastifyReply, page: RenderedPage): FastifyReply {
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', page.contentSecurityPolicy)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .send(page.html);
}

/** A string member of a parsed query, form or params object; anything else reads as missing. */
export function field(source: unknown, name: string): string | undefined {
  if (source == null || typeof source !== 'object') return undefined;
  const value: unknown = (source as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}
