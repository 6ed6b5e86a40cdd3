import {
  CreateOrganizationRequestSchema,
  DeleteCaseQuerySchema,
  MyMembershipListSchema,
  OrganizationListSchema,
  OrganizationPurgeCheckSchema,
  OrganizationSchema,
  UpdateOrganizationRequestSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OrganizationService } from './organization.service.ts';

// A plain string: a malformed id names nothing, so it answers 404 like an invisible group.
const Params = z.object({ id: z.string() });
const tags = ['organizations'];

export const organizationRoutes: FastifyPluginAsyncZod<{ service: OrganizationService }> = async (app, { service }) => {
  app.get(
    '/organizations',
    {
      schema: {
        operationId: 'listOrganizations',
        tags,
        summary: 'Groups the caller may see, sorted by name, each with userCapabilities',
        response: { 200: OrganizationListSchema },
      },
    },
    (request) => service.list(request.caller),
  );

  app.get(
    '/organizations/me/memberships',
    {
      schema: {
        operationId: 'listMyMemberships',
        tags,
        summary: "The caller's own role in each group they belong to",
        response: { 200: MyMembershipListSchema },
      },
    },
    (request) => service.myMemberships(request.caller),
  );

  app.post(
    '/organizations',
    {
      schema: {
        operationId: 'createOrganization',
        tags,
        summary: "Creates a group in a contract the caller owns, within the contract's group limit (409 past it)",
        body: CreateOrganizationRequestSchema,
        response: { 201: OrganizationSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.caller, request.body)),
  );

  app.get(
    '/organizations/:id',
    {
      schema: {
        operationId: 'getOrganization',
        tags,
        summary: 'Every field of a group with its storage use and userCapabilities',
        params: Params,
        response: { 200: OrganizationSchema },
      },
    },
    (request) => service.get(request.caller, request.params.id),
  );

  app.patch(
    '/organizations/:id',
    {
      schema: {
        operationId: 'updateOrganization',
        tags,
        summary: 'Changes a group (merge-patch); needs edit, and the contract owner for limits and flags',
        params: Params,
        body: UpdateOrganizationRequestSchema,
        response: { 200: OrganizationSchema },
      },
    },
    (request) => service.update(request.caller, request.params.id, request.body),
  );

  app.get(
    '/organizations/lazy/:id/purge-check',
    {
      schema: {
        operationId: 'checkOrganizationPurge',
        tags,
        summary: 'What deleting the group would remove: cases, images, attachments, members, bytes',
        params: Params,
        response: { 200: OrganizationPurgeCheckSchema },
      },
    },
    (request) => service.purgeCheck(request.caller, request.params.id),
  );

  app.delete(
    '/organizations/lazy/:id',
    {
      schema: {
        operationId: 'deleteOrganization',
        tags,
        summary: 'Deletes a group; with recursive=true also its cases and their files (409 otherwise)',
        params: Params,
        querystring: DeleteCaseQuerySchema,
      },
    },
    async (request, reply) => {
      await service.delete(request.caller, request.params.id, { recursive: request.query.recursive === 'true' });
      return reply.status(204).send();
    },
  );
};
