import {
  NoticeBadgeSchema,
  NoticeListQuerySchema,
  NoticeListSchema,
  NoticeMediaSchema,
  NoticeRequestSchema,
  NoticeSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { NoticeMedia } from './notice-media.ts';
import type { NoticeService } from './notice.service.ts';

const IdParams = z.object({ id: z.string() });
const tags = ['notices'];

export const noticeRoutes: FastifyPluginAsyncZod<{ service: NoticeService; media: NoticeMedia }> = async (
  app,
  { service, media },
) => {
  app.get(
    '/notices',
    {
      schema: {
        operationId: 'listNotices',
        tags,
        summary: 'Notices that reach the caller (range, open and close times, never drafts), newest first',
        querystring: NoticeListQuerySchema,
        response: { 200: NoticeListSchema },
      },
    },
    (request) => service.list(request.caller, request.query),
  );

  app.get(
    '/notices/badges',
    {
      schema: {
        operationId: 'noticeBadges',
        tags,
        summary: 'Unread notices and whether a mention is new, for the header bell',
        response: { 200: NoticeBadgeSchema },
      },
    },
    (request) => service.badges(request.caller),
  );

  app.get(
    '/notices/posts',
    {
      schema: {
        operationId: 'listNoticePosts',
        tags,
        summary: 'Every notice, drafts included; super users only',
        querystring: NoticeListQuerySchema,
        response: { 200: NoticeListSchema },
      },
    },
    (request) => service.posts(request.caller, request.query),
  );

  app.get(
    '/notices/posts/:id',
    {
      schema: {
        operationId: 'getNoticePost',
        tags,
        summary: 'One notice; super users only',
        params: IdParams,
        response: { 200: NoticeSchema },
      },
    },
    (request) => service.post(request.caller, request.params.id),
  );

  app.post(
    '/notices/posts',
    {
      schema: {
        operationId: 'createNotice',
        tags,
        summary: 'Posts a notice (HTML body sanitised); super users only',
        body: NoticeRequestSchema,
        response: { 201: NoticeSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.caller, request.body)),
  );

  app.post(
    '/notices/posts/:id',
    {
      schema: {
        operationId: 'updateNotice',
        tags,
        summary: 'Changes a notice; super users only',
        params: IdParams,
        body: NoticeRequestSchema,
        response: { 200: NoticeSchema },
      },
    },
    (request) => service.update(request.caller, request.params.id, request.body),
  );

  app.delete(
    '/notices/posts/:id',
    { schema: { operationId: 'deleteNotice', tags, summary: 'Deletes a notice; super users only', params: IdParams } },
    async (request, reply) => {
      await service.remove(request.caller, request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/notices/read/:id',
    {
      schema: {
        operationId: 'readNotice',
        tags,
        summary: 'Marks a notice that reaches the caller as read',
        params: IdParams,
        response: { 200: NoticeSchema },
      },
    },
    (request) => service.read(request.caller, request.params.id),
  );

  app.get(
    '/notices/media/:id',
    {
      schema: {
        operationId: 'getNoticeMedia',
        tags,
        summary: 'A picture of a notice, to signed-in users',
        params: IdParams,
      },
    },
    async (request, reply) => {
      const picture = await media.open(request.params.id);
      return reply
        .type(picture.contentType)
        .header('cache-control', 'private, max-age=86400, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(picture.body);
    },
  );

  app.get(
    '/notices/:id',
    {
      schema: {
        operationId: 'getNotice',
        tags,
        summary: 'One notice that reaches the caller; 404 otherwise',
        params: IdParams,
        response: { 200: NoticeSchema },
      },
    },
    (request) => service.get(request.caller, request.params.id),
  );

  // A picture arrives as the raw request body, whatever type the browser names it.
  await app.register(async (upload) => {
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser('*', (_request, _payload, done) => done(null));
    upload.post(
      '/notices/media',
      {
        schema: {
          operationId: 'uploadNoticeMedia',
          tags,
          summary: 'Stores a picture for a notice body (PNG, JPEG, GIF, WebP, at most 10 MB); super users only',
          response: { 201: NoticeMediaSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await media.upload(request.caller, request.raw)),
    );
  });
};
