import {
  CaseGrantListSchema,
  CaseGrantSchema,
  CreateCaseGrantRequestSchema,
  UpdateCaseGrantRequestSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GrantService } from './grant.service.ts';

// Plain strings: a malformed id names nothing, so it answers 404 like an invisible case.
const CaseParams = z.object({ id: z.string() });
const GrantParams = z.object({ id: z.string(), grantId: z.string() });

export const grantRoutes: FastifyPluginAsyncZod<{ service: GrantService }> = async (app, { service }) => {
  app.get(
    '/cases/:id/grants',
    {
      schema: {
        operationId: 'listCaseGrants',
        tags: ['grants'],
        summary: 'Permissions given on a case to accounts and groups; needs share',
        params: CaseParams,
        response: { 200: CaseGrantListSchema },
      },
    },
    (request) => service.list(request.caller, request.params.id),
  );

  app.post(
    '/cases/:id/grants',
    {
      schema: {
        operationId: 'createCaseGrant',
        tags: ['grants'],
        summary: 'Gives an account (by id or e-mail) or a group a role on the case; needs share',
        description:
          'The role may not exceed the caller’s own on the case (403). A second grant to the same grantee is 409.',
        params: CaseParams,
        body: CreateCaseGrantRequestSchema,
        response: { 201: CaseGrantSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.caller, request.params.id, request.body)),
  );

  app.patch(
    '/cases/:id/grants/:grantId',
    {
      schema: {
        operationId: 'updateCaseGrant',
        tags: ['grants'],
        summary: 'Changes the role of a grant (merge-patch); needs share',
        params: GrantParams,
        body: UpdateCaseGrantRequestSchema,
        response: { 200: CaseGrantSchema },
      },
    },
    (request) => service.update(request.caller, request.params.id, request.params.grantId, request.body),
  );

  app.delete(
    '/cases/:id/grants/:grantId',
    {
      schema: {
        operationId: 'deleteCaseGrant',
        tags: ['grants'],
        summary: 'Takes a grant away; needs share',
        params: GrantParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.delete(request.caller, request.params.id, request.params.grantId);
      return reply.status(204).send(null);
    },
  );
};
