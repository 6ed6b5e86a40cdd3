import {
  CreateImageNoteRequestSchema,
  ImageNoteListSchema,
  ImageNoteSchema,
  UpdateImageNoteRequestSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ImageNoteService } from './image-note.service.ts';

// Plain strings: a malformed id names nothing, so it answers 404 like an invisible image.
const ImageParams = z.object({ id: z.string() });
const NoteParams = z.object({ id: z.string(), noteId: z.string() });

export const imageNoteRoutes: FastifyPluginAsyncZod<{ service: ImageNoteService }> = async (app, { service }) => {
  app.get(
    '/images/:id/notes',
    {
      schema: {
        operationId: 'listImageNotes',
        tags: ['image notes'],
        summary: "An image's notes, newest first: public ones and the caller's private ones; needs image note",
        params: ImageParams,
        response: { 200: ImageNoteListSchema },
      },
    },
    (request) => service.list(request.caller, request.params.id),
  );

  app.get(
    '/images/:id/notes/:noteId',
    {
      schema: {
        operationId: 'getImageNote',
        tags: ['image notes'],
        summary: "One note; 404 for someone else's private note",
        params: NoteParams,
        response: { 200: ImageNoteSchema },
      },
    },
    (request) => service.get(request.caller, request.params.id, request.params.noteId),
  );

  app.post(
    '/images/:id/notes',
    {
      schema: {
        operationId: 'createImageNote',
        tags: ['image notes'],
        summary: 'Adds a note to an image; needs image note',
        description: "@name in a public note mentions a member of the case's owner group, as in comments.",
        params: ImageParams,
        body: CreateImageNoteRequestSchema,
        response: { 201: ImageNoteSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.caller, request.params.id, request.body)),
  );

  app.patch(
    '/images/:id/notes/:noteId',
    {
      schema: {
        operationId: 'updateImageNote',
        tags: ['image notes'],
        summary: 'Changes the text or visibility of a note (merge-patch); its author only',
        params: NoteParams,
        body: UpdateImageNoteRequestSchema,
        response: { 200: ImageNoteSchema },
      },
    },
    (request) => service.update(request.caller, request.params.id, request.params.noteId, request.body),
  );

  app.delete(
    '/images/:id/notes/:noteId',
    {
      schema: {
        operationId: 'deleteImageNote',
        tags: ['image notes'],
        summary: 'Deletes a note and its mentions; its author, or an editor of the case for a public note',
        params: NoteParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.delete(request.caller, request.params.id, request.params.noteId);
      return reply.status(204).send(null);
    },
  );
};
