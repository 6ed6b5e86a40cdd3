import {
  SaveScreenSettingsSchema,
  ScreenSettingItemSchema,
  ScreenSettingTypeSchema,
  ScreenSettingsListSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ScreenSettingsService } from './screen-settings.service.ts';

export const screenSettingsRoutes: FastifyPluginAsyncZod<{ service: ScreenSettingsService }> = async (
  app,
  { service },
) => {
  app.get(
    '/screen_settings/get/:key',
    {
      schema: {
        operationId: 'getScreenSetting',
        tags: ['screen settings'],
        summary: "The caller's setting for one screen, or its default",
        params: z.object({ key: ScreenSettingTypeSchema }),
        response: { 200: ScreenSettingItemSchema },
      },
    },
    (request) => service.get(request.caller.accountId, request.params.key),
  );

  app.get(
    '/screen_settings/all',
    {
      schema: {
        operationId: 'listScreenSettings',
        tags: ['screen settings'],
        summary: "The caller's settings of every screen, defaults filled in",
        response: { 200: ScreenSettingsListSchema },
      },
    },
    async (request) => ({ data: await service.all(request.caller.accountId) }),
  );

  app.post(
    '/screen_settings/save',
    {
      schema: {
        operationId: 'saveScreenSettings',
        tags: ['screen settings'],
        summary: 'Saves settings of the caller; each value is checked against its screen',
        body: SaveScreenSettingsSchema,
        response: { 200: ScreenSettingsListSchema },
      },
    },
    async (request) => ({ data: await service.save(request.caller.accountId, request.body.items) }),
  );
};
