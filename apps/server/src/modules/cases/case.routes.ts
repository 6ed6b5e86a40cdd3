import {
  CaseSchema,
  CreateCaseRequestSchema,
  DeleteCaseQuerySchema,
  UpdateCaseRequestSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CaseService } from './case.service.ts';

// Ids stay plain strings: a malformed id names no case, so it answers 404 like any invisible one.
const CaseParams = z.object({ id: z.string() });

export const caseRoutes: FastifyPluginAsyncZod<{ service: CaseService }> = async (app, { service }) => {
  app.get(
    '/cases/:id',
    {
      schema: {
        operationId: 'getCase',
        tags: ['cases'],
        summary: 'One case with counts and userCapabilities; 404 unless the caller may see it',
        params: CaseParams,
        response: { 200: CaseSchema },
      },
    },
    (request) => service.get(request.caller, request.params.id),
  );

  app.post(
    '/cases',
    {
      schema: {
        operationId: 'createCase',
        tags: ['cases'],
        summary: 'Creates a case in a group where the caller may create cases',
        description:
          'Super users also name the slide provider (intendedOwnerOrganizationId). ' +
          'Field problems answer 422 with { message, errors: { field: message } }.',
        body: CreateCaseRequestSchema,
        response: { 201: CaseSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.caller, request.body)),
  );

  app.patch(
    '/cases/:id',
    {
      schema: {
        operationId: 'updateCase',
        tags: ['cases'],
        summary: 'Changes the fields sent (application/merge-patch+json); needs edit',
        description:
          'null clears a text field or the tags. A different ownerOrganizationId moves the case and also ' +
          'needs transfer on it and case creation in the destination.',
        params: CaseParams,
        body: UpdateCaseRequestSchema,
        response: { 200: CaseSchema },
      },
    },
    (request) => service.update(request.caller, request.params.id, request.body),
  );

  app.delete(
    '/cases/:id',
    {
      schema: {
        operationId: 'deleteCase',
        tags: ['cases'],
        summary: 'Deletes a case; needs delete',
        description:
          'A case with images, attachments or comments answers 409 with their counts unless recursive=true, ' +
          'which deletes them too.',
        params: CaseParams,
        querystring: DeleteCaseQuerySchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const released = await service.delete(request.caller, request.params.id, {
        recursive: request.query.recursive === 'true',
      });
      request.log.info({ caseId: request.params.id, releasedBlobKeys: released }, 'case deleted');
      return reply.status(204).send(null);
    },
  );
};
