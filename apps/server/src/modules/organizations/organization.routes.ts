import { OrganizationListSchema } from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { OrganizationService } from './organization.service.ts';

export const organizationRoutes: FastifyPluginAsyncZod<{ service: OrganizationService }> = async (app, { service }) => {
  app.get(
    '/organizations',
    {
      schema: {
        operationId: 'listOrganizations',
        tags: ['organizations'],
        summary: 'Groups the caller may see, sorted by name, each with userCapabilities',
        response: { 200: OrganizationListSchema },
      },
    },
    (request) => service.list(request.caller),
  );
};
