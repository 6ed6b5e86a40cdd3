import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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
function appDirectives(identityProvider: string) {
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
    frameAncestors: [(request: IncomingMessage) => (isSilentCallback(request) ? "'self'" : "'none'")],
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

/**
 * Security headers on every response — pages, API answers, errors, tiles, 404s (helmet sets them
 * before any route runs): `nosniff`, the CSP above, `Referrer-Policy`, no framing. Pages with a policy
 * of their own (the sign-in pages, Swagger UI) replace the CSP with theirs. HSTS only when the app is
 * served over HTTPS: on plain HTTP browsers ignore it and a LAN install may never get a certificate.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { publicUrl: string; issuer: string },
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: appDirectives(new URL(options.issuer).origin) },
    referrerPolicy: { policy: 'same-origin' },
    // A sign-in popup (oidc-client-ts can use one) must keep its opener to hand the answer back.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // CSP frame-ancestors decides, page by page; X-Frame-Options cannot make the silent-renewal exception.
    xFrameOptions: false,
    strictTransportSecurity: options.publicUrl.startsWith('https:') ? { maxAge: 31_536_000 } : false,
  });
  // IIIF is for other viewers too (its answers allow any origin), so its images may be embedded anywhere.
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/iiif/')) reply.raw.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  });
}
