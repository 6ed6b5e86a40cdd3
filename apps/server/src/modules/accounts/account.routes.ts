import { AccountMenuSchema, AccountRolesSchema, AccountSchema } from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccountService } from './account.service.ts';

export const accountRoutes: FastifyPluginAsyncZod<{ service: AccountService }> = async (app, { service }) => {
  app.get(
    '/accounts/me',
    {
      schema: {
        operationId: 'getMyAccount',
        tags: ['accounts'],
        summary: 'The signed-in account',
        response: { 200: AccountSchema },
      },
    },
    (request) => service.me(request.caller),
  );

  app.get(
    '/accounts/roles',
    {
      schema: {
        operationId: 'getMyRoles',
        tags: ['accounts'],
        summary: "The caller's role checks and group memberships",
        response: { 200: AccountRolesSchema },
      },
    },
    (request) => service.roles(request.caller),
  );

  app.get(
    '/accounts/me/menu',
    {
      schema: {
        operationId: 'getMyMenu',
        tags: ['accounts'],
        summary: 'The navigation menu for the caller, built from their roles',
        response: { 200: AccountMenuSchema },
      },
    },
    (request) => service.menu(request.caller),
  );
};
