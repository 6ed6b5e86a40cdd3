import {
  MentionSuggestionListSchema,
  CommentListSchema,
  CommentSchema,
  CreateCommentRequestSchema,
  UpdateCommentRequestSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CommentService } from './comment.service.ts';

// Plain strings: a malformed id names nothing, so it answers 404 like an invisible case.
const CaseParams = z.object({ id: z.string() });
const CommentParams = z.object({ id: z.string(), commentId: z.string() });

export const commentRoutes: FastifyPluginAsyncZod<{ service: CommentService }> = async (app, { service }) => {
  app.get(
    '/cases/:id/comments',
    {
      schema: {
        operationId: 'listCaseComments',
        tags: ['comments'],
        summary: 'The comment thread of a case, newest last; anyone who may see the case',
        params: CaseParams,
        response: { 200: CommentListSchema },
      },
    },
    (request) => service.list(request.caller, request.params.id),
  );

  app.get(
    '/cases/:id/mention-candidates',
    {
      schema: {
        operationId: 'suggestMentions',
        tags: ['comments'],
        summary: 'Members of the case group whose names start with `q` (two characters or more); needs comment',
        params: CaseParams,
        querystring: z.object({ q: z.string().max(100).default('') }),
        response: { 200: MentionSuggestionListSchema },
      },
    },
    async (request) => ({ data: await service.suggestMentions(request.caller, request.params.id, request.query.q) }),
  );

  app.post(
    '/cases/:id/comments',
    {
      schema: {
        operationId: 'createCaseComment',
        tags: ['comments'],
        summary: 'Adds a comment, optionally about one image of the case; needs comment',
        description:
          '@name mentions a member of the owner group by display name, "firstName lastName" or e-mail ' +
          'local part, and records a mention for them (never for the author).',
        params: CaseParams,
        body: CreateCommentRequestSchema,
        response: { 201: CommentSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.caller, request.params.id, request.body)),
  );

  app.patch(
    '/cases/:id/comments/:commentId',
    {
      schema: {
        operationId: 'updateCaseComment',
        tags: ['comments'],
        summary: 'Changes the text of a comment (merge-patch); needs edit on the case or being its author',
        description: 'Members newly @mentioned by the new text get a mention; earlier mentions stay.',
        params: CommentParams,
        body: UpdateCommentRequestSchema,
        response: { 200: CommentSchema },
      },
    },
    (request) => service.update(request.caller, request.params.id, request.params.commentId, request.body),
  );

  app.delete(
    '/cases/:id/comments/:commentId',
    {
      schema: {
        operationId: 'deleteCaseComment',
        tags: ['comments'],
        summary: 'Deletes a comment and its mentions; needs edit or delete on the case, or being its author',
        params: CommentParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.delete(request.caller, request.params.id, request.params.commentId);
      return reply.status(204).send(null);
    },
  );
};
