import { CaseSearchRequestSchema, CaseSearchResponseSchema, TagListSchema } from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CaseSearchService } from './case-search.service.ts';

export const caseSearchRoutes: FastifyPluginAsyncZod<{ service: CaseSearchService }> = async (app, { service }) => {
  app.post(
    '/cases/search',
    {
      schema: {
        operationId: 'searchCases',
        tags: ['cases'],
        summary: 'One page of the cases the caller may see that match every expression of the query',
        description:
          'Each expression is {field, operator, value}. An asterisk in a value matches any characters; ' +
          'empty values are ignored. Image fields (organ, specimenType, displayName, modelName, imageTags) ' +
          'match a case through any of its images.',
        body: CaseSearchRequestSchema,
        response: { 200: CaseSearchResponseSchema },
      },
    },
    (request) => service.search(request.caller, request.body),
  );

  app.get(
    '/tags',
    {
      schema: {
        operationId: 'listCaseTags',
        tags: ['cases'],
        summary: 'Tags of the cases the caller may see, most used first',
        response: { 200: TagListSchema },
      },
    },
    async (request) => ({ data: await service.tags(request.caller, 'tags') }),
  );

  app.get(
    '/image/tags',
    {
      schema: {
        operationId: 'listImageTags',
        tags: ['images'],
        summary: 'Tags of the images the caller may see, most used first',
        response: { 200: TagListSchema },
      },
    },
    async (request) => ({ data: await service.tags(request.caller, 'imageTags') }),
  );
};
