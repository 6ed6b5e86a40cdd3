import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_DOCS_CSP } from './security-headers.ts';

/** OpenAPI document generated from the routes' contract schemas, served with its UI at /api/docs. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Pathology slides API',
        description: 'Cases, slide images, labels, groups and notices. Every call needs a bearer token.',
        version,
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: API_DOCS_CSP,
    // Its default sends the document's address to validator.swagger.io for a badge image.
    uiConfig: { validatorUrl: null },
  });
}
