import {
  AccountMenuSchema,
  AccountRolesSchema,
  AccountSchema,
  MAX_AVATAR_UPLOAD_BYTES,
  UpdateAccountAttributesRequestSchema,
  UpdateAccountRequestSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountService } from './account.service.ts';
import { avatarDataUrl } from './avatar.ts';

export const accountRoutes: FastifyPluginAsyncZod<{ service: AccountService }> = async (app, { service }) => {
  app.post(
    '/accounts/me/update',
    {
      schema: {
        operationId: 'updateMyAccount',
        tags: ['accounts'],
        summary: "Changes the caller's first, last and display name",
        body: UpdateAccountRequestSchema,
        response: { 200: AccountSchema },
      },
    },
    (request) => service.updateMe(request.caller, request.body),
  );

  app.post(
    '/accounts/update',
    {
      schema: {
        operationId: 'updateAccount',
        tags: ['accounts'],
        summary: "Changes another account's names; super users",
        body: UpdateAccountRequestSchema.extend({ id: z.uuid() }),
      },
    },
    async (request, reply) => {
      const { id, ...names } = request.body;
      await service.updateAccount(request.caller, id, names);
      return reply.status(204).send();
    },
  );

  app.post(
    '/accounts/update/attributes',
    {
      schema: {
        operationId: 'updateMyAccountAttributes',
        tags: ['accounts'],
        summary: "Changes the caller's affiliation and profile text",
        body: UpdateAccountAttributesRequestSchema,
        response: { 200: AccountSchema },
      },
    },
    (request) => service.updateAttributes(request.caller, request.body),
  );

  await app.register(async (upload) => {
    upload.addContentTypeParser(
      ['image/png', 'image/jpeg', 'image/webp'],
      { parseAs: 'buffer', bodyLimit: MAX_AVATAR_UPLOAD_BYTES },
      (_request, body, done) => done(null, body),
    );
    upload.put(
      '/accounts/me/avatar',
      {
        schema: {
          operationId: 'setMyAvatar',
          tags: ['accounts'],
          summary: "Sets the caller's picture from a PNG, JPEG or WebP body (at most 5 MB), stored as a 256 px square",
          response: { 200: AccountSchema },
        },
      },
      async (request) => service.setAvatar(request.caller, await avatarDataUrl(request.body as Buffer)),
    );
  });

  app.delete(
    '/accounts/me/avatar',
    {
      schema: {
        operationId: 'removeMyAvatar',
        tags: ['accounts'],
        summary: "Removes the caller's picture",
        response: { 200: AccountSchema },
      },
    },
    (request) => service.setAvatar(request.caller, null),
  );

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
