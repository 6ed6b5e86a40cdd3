import {
  ColorPresetListSchema,
  ColorPresetSchema,
  CreateColorPresetRequestSchema,
  MyColorQuerySchema,
  MyColorSchema,
  SaveMyColorRequestSchema,
  UpdateColorPresetRequestSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ColorService } from './color.service.ts';

const GroupParams = z.object({ id: z.string() });
const PresetParams = z.object({ id: z.string(), colorId: z.string() });
const tags = ['colors'];

export const colorRoutes: FastifyPluginAsyncZod<{ service: ColorService }> = async (app, { service }) => {
  app.get(
    '/accounts/me/color',
    {
      schema: {
        operationId: 'getMyColor',
        tags,
        summary: "The caller's viewer colour for a case",
        description:
          "The caller's own colour for the case (source 'user'), else the default preset of the case's owner " +
          "group ('preset'), else the neutral settings ('default'). Settings are named with a bitmap prefix.",
        querystring: MyColorQuerySchema,
        response: { 200: MyColorSchema },
      },
    },
    (request) => service.myColor(request.caller, request.query.caseId),
  );

  app.post(
    '/accounts/me/color',
    {
      schema: {
        operationId: 'saveMyColor',
        tags,
        summary: "Saves the caller's viewer colour for a case they can see",
        body: SaveMyColorRequestSchema,
        response: { 200: MyColorSchema },
      },
    },
    (request) => service.saveMyColor(request.caller, request.body),
  );

  app.get(
    '/organizations/:id/colors',
    {
      schema: {
        operationId: 'listColorPresets',
        tags,
        summary: "The group's colour presets, the default first",
        params: GroupParams,
        response: { 200: ColorPresetListSchema },
      },
    },
    async (request) => ({ data: await service.listPresets(request.caller, request.params.id) }),
  );

  app.get(
    '/organizations/:id/colors/:colorId',
    {
      schema: {
        operationId: 'getColorPreset',
        tags,
        summary: 'One colour preset of the group',
        params: PresetParams,
        response: { 200: ColorPresetSchema },
      },
    },
    (request) => service.getPreset(request.caller, request.params.id, request.params.colorId),
  );

  app.post(
    '/organizations/:id/colors',
    {
      schema: {
        operationId: 'createColorPreset',
        tags,
        summary: 'Adds a colour preset to the group; group administrators only',
        params: GroupParams,
        body: CreateColorPresetRequestSchema,
        response: { 201: ColorPresetSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.createPreset(request.caller, request.params.id, request.body)),
  );

  app.patch(
    '/organizations/:id/colors/:colorId',
    {
      schema: {
        operationId: 'updateColorPreset',
        tags,
        summary: 'Renames a colour preset or changes its settings (merge-patch); group administrators only',
        params: PresetParams,
        body: UpdateColorPresetRequestSchema,
        response: { 200: ColorPresetSchema },
      },
    },
    (request) => service.updatePreset(request.caller, request.params.id, request.params.colorId, request.body),
  );

  app.delete(
    '/organizations/:id/colors/:colorId',
    {
      schema: {
        operationId: 'deleteColorPreset',
        tags,
        summary: 'Deletes a colour preset; group administrators only',
        params: PresetParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.deletePreset(request.caller, request.params.id, request.params.colorId);
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/organizations/:id/colors/:colorId/setdefault',
    {
      schema: {
        operationId: 'setDefaultColorPreset',
        tags,
        summary: "Makes the preset the group's only default; group administrators only",
        params: PresetParams,
        response: { 200: ColorPresetSchema },
      },
    },
    (request) => service.setDefault(request.caller, request.params.id, request.params.colorId),
  );

  app.patch(
    '/organizations/:id/colors/:colorId/unsetdefault',
    {
      schema: {
        operationId: 'unsetDefaultColorPreset',
        tags,
        summary: 'The preset stops being the default (the group then has none); group administrators only',
        params: PresetParams,
        response: { 200: ColorPresetSchema },
      },
    },
    (request) => service.unsetDefault(request.caller, request.params.id, request.params.colorId),
  );
};
