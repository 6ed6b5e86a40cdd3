import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_DOCS_CSP } from './security-headers.ts';

const DOCS_PREFIX = '/api/docs';

/** What the documentation's app answers to what it does not have: this app's own 404 answers instead. */
const NOT_HERE = 'not part of the documentation';
/** Headers of the documentation's own answer that belong to its connection, not to the answer forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

/**
 * OpenAPI document generated from the routes' contract schemas, served with its UI at /api/docs. @fastify/swagger
 * and its UI load `yaml` (70 modules, a tenth of a second) and build the document in an app of their own on the
 * first request under /api/docs, not at every start: that app is given the routes this one declares, with their
 * schemas, and answers the requests this one forwards to it.
 */
export function registerOpenApi(app: FastifyInstance, version: string): void {
  let docs: Promise<FastifyInstance> | undefined;
  const routes: RouteOptions[] = [];

  async function forward(request: FastifyRequest, reply: FastifyReply) {
    docs ??= buildDocs(routes, version).catch((error: unknown) => {
      docs = undefined;
      throw error;
    });
    // Asked as a GET: of a HEAD, this app's own HEAD route sends the headers of the whole answer without its body.
    const answer = await (await docs).inject({ method: 'GET', url: request.url, headers: request.headers });
    if (answer.statusCode === 404 && answer.payload === NOT_HERE) return reply.callNotFound();
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name)) void reply.header(name, value);
    // An empty answer (a redirect) is sent as one, with no content type of its own.
    return reply.code(answer.statusCode).send(answer.rawPayload.length > 0 ? answer.rawPayload : undefined);
  }
  // Declared before the hook below: they are this app's doors to the documentation, not part of it.
  app.get(DOCS_PREFIX, { schema: { hide: true } }, forward);
  app.get(`${DOCS_PREFIX}/*`, { schema: { hide: true } }, forward);
  // HEAD routes stay out of the document (@fastify/swagger's default) and the documentation's app adds its own.
  app.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD') routes.push(route);
  });
}

async function buildDocs(routes: RouteOptions[], version: string): Promise<FastifyInstance> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  const docs = Fastify({ logger: false });
  // The routes' schemas are only read into the document here: nothing is validated or serialised with them.
  docs.setValidatorCompiler(() => () => true);
  docs.setSerializerCompiler(() => (data) => JSON.stringify(data));
  docs.setNotFoundHandler((_request, reply) => reply.code(404).send(NOT_HERE));
  await docs.register(swagger, {
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
  await docs.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    staticCSP: API_DOCS_CSP,
    // Its default sends the document's address to validator.swagger.io for a badge image.
    uiConfig: { validatorUrl: null },
  });
  const answeredByTheApp = () => {
    throw new Error('the documentation app only describes the routes');
  };
  for (const route of routes)
    docs.route({
      method: route.method,
      url: route.url,
      schema: route.schema,
      config: route.config,
      constraints: route.constraints,
      handler: answeredByTheApp,
    });
  await docs.ready();
  return docs;
}
