import type { FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/**
 * Fastify's schema controller with zod's compilers from the app's creation. Set afterwards (setValidatorCompiler),
 * they would replace Fastify's defaults only once these were made: Fastify requires Ajv (twice, with its formats) and
 * fast-json-stringify when an app is created, about 230 modules and a quarter of a start's CPU, to never use them.
 * Fastify types these factories as Ajv's and fast-json-stringify's; it calls them as any route compiler.
 */
export const zodSchemaController: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: {
    buildValidator: (() => validatorCompiler) as unknown as CompilersFactory['buildValidator'],
    buildSerializer: (() => serializerCompiler) as unknown as CompilersFactory['buildSerializer'],
  },
};
