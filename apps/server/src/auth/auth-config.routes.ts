import { AuthConfigSchema, type AuthConfig } from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';

/** offline_access brings a refresh token, which oidc-client-ts prefers over an iframe for silent renewal. */
const SCOPE = 'openid profile email offline_access';

export const authConfigRoutes: FastifyPluginAsyncZod<
  Pick<Config, 'oidc' | 'maxCaseImages' | 'helpUrl'> & Partial<Pick<Config, 'chaos'>>
> = async (app, { oidc, maxCaseImages, helpUrl, chaos }) => {
  const body: AuthConfig = {
    authority: oidc.issuer,
    clientId: oidc.clientId,
    scope: SCOPE,
    maxCaseImages,
    ...(helpUrl ? { helpUrl } : {}),
    ...(chaos ? { chaos } : {}),
    // Only the built-in provider is known to honour RFC 8707 resource indicators.
    ...(oidc.builtIn ? { resource: oidc.audience } : {}),
  };
  app.get(
    '/auth/config',
    {
      config: { public: true },
      schema: {
        operationId: 'getAuthConfig',
        tags: ['auth'],
        summary:
          'How the web app signs in (the OpenID provider, client and scope), the image count a case warns at, and the ' +
          "operator's help pages, and the CHAOS setting while it is on",
        security: [],
        response: { 200: AuthConfigSchema },
      },
    },
    async () => body,
  );
};
