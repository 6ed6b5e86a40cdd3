import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** Silent renewal's hidden frame (only without a refresh token) lands on this page of the app, inside the app. */
const SILENT_CALLBACK_PATH = '/auth/silent-callback';

const isSilentCallback = (request: IncomingMessage) => (request.url ?? '').split('?', 1)[0] === SILENT_CALLBACK_PATH;

/**
 * The web app's policy. Scripts, workers (pdf.js's is an asset of the app) and fetches stay on this
 * origin and the identity provider's; styles may be inline (Mantine's variables, TipTap and
 * OpenSeadragon set style attributes); images may be blob: and data: URLs (thumbnails, notice
 * pictures, OpenSeadragon's tiles fetched with the bearer token). Nothing may frame the app except the
 * app itself for silent renewal's callback.
 */
function appDirectives(identityProvider: string, frameAncestors: string) {
  return {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", identityProvider],
    workerSrc: ["'self'", 'blob:'],
    frameSrc: ["'self'", identityProvider],
    objectSrc: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: [frameAncestors],
  };
}

/**
 * Swagger UI's pages (@fastify/swagger-ui's `staticCSP`): its bundle loads from its own static folder
 * and needs no inline script; it reads the OpenAPI document and tries calls on this origin.
 */
export const API_DOCS_CSP = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** Sets the security headers of one response; sync, so a route that bypasses the hooks (tile-lane.ts) sets the same. */
export type SecurityHeaders = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Security headers on every response — pages, API answers, errors, tiles, 404s (set before any route runs):
 * `nosniff`, the CSP above, `Referrer-Policy`, no framing. Pages with a policy of their own (the sign-in pages,
 * Swagger UI) replace the CSP with theirs. HSTS only when the app is served over HTTPS: on plain HTTP browsers
 * ignore it and a LAN install may never get a certificate. Each policy is built once: @fastify/helmet built
 * helmet's middleware anew for every request, which cost tiles a tenth of their throughput (issue 43).
 */
export function createSecurityHeaders(options: { publicUrl: string; issuer: string }): SecurityHeaders {
  const identityProvider = new URL(options.issuer).origin;
  const policy = (frameAncestors: string) =>
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: appDirectives(identityProvider, frameAncestors) },
      referrerPolicy: { policy: 'same-origin' },
      // A sign-in popup (oidc-client-ts can use one) must keep its opener to hand the answer back.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      // CSP frame-ancestors decides, page by page; X-Frame-Options cannot make the silent-renewal exception.
      xFrameOptions: false,
      strictTransportSecurity: options.publicUrl.startsWith('https:') ? { maxAge: 31_536_000 } : false,
    });
  const everywhere = policy("'none'");
  const silentCallback = policy("'self'");
  // Static policies: helmet's middlewares cannot fail on them, and all of them call back at once.
  const failed = (error?: unknown) => {
    if (error instanceof Error) throw error;
  };
  return (request, response) => {
    (isSilentCallback(request) ? silentCallback : everywhere)(request, response, failed);
    // IIIF is for other viewers too (its answers allow any origin), so its images may be embedded anywhere.
    if (request.url?.startsWith('/iiif/') === true) response.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  };
}

/**
 * The headers `headers` sets on every answer to `url`, as a flat name, value list for `writeHead`: the policies are
 * static, so a path that answers often (tile-lane.ts) takes them once instead of running helmet per answer.
 */
export function securityHeadersOf(headers: SecurityHeaders, url: string): string[] {
  const set = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string | number) => set.set(name, String(value)),
    removeHeader: (name: string) => set.delete(name),
    getHeader: (name: string) => set.get(name),
  };
  headers({ url, headers: {} } as IncomingMessage, response as unknown as ServerResponse);
  return [...set].flat();
}

export function registerSecurityHeaders(app: FastifyInstance, headers: SecurityHeaders): void {
  app.addHook('onRequest', (request, reply, done) => {
    headers(request.raw, reply.raw);
    done();
  });
}
