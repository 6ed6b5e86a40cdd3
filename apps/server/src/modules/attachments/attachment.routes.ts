import {
  AttachmentContentQuerySchema,
  AttachmentDetailSchema,
  AttachmentListSchema,
  AttachmentSchema,
  AttachmentUploadQuerySchema,
  PREVIEWABLE_ATTACHMENT_CONTENT_TYPES,
} from '@pathology/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition } from '../../http/content-disposition.ts';
import type { AttachmentContent, AttachmentService } from './attachment.service.ts';

// Ids stay plain strings: a malformed id names nothing, so it answers 404 like any invisible one.
const CaseParams = z.object({ id: z.string() });
const AttachmentParams = z.object({ id: z.string(), attachmentId: z.string() });

/** A Content-Length header as a number, or undefined when the body is chunked. */
function declaredLength(header: string | undefined): number | undefined {
  if (header == null || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

/** Headers of a content answer. Only PDFs are ever shown inline; everything else is a download. */
function sendContent(reply: FastifyReply, content: AttachmentContent, inline: boolean) {
  const { attachment, range, body } = content;
  const previewable = (PREVIEWABLE_ATTACHMENT_CONTENT_TYPES as readonly string[]).includes(attachment.contentType);
  const disposition = attachmentDisposition(attachment.filename);
  reply
    .header('Content-Type', attachment.contentType)
    .header('Content-Disposition', inline && previewable ? disposition.replace(/^attachment/, 'inline') : disposition)
    .header('Accept-Ranges', 'bytes')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-cache');
  if (range == null) return reply.header('Content-Length', attachment.sizeBytes).send(body);
  return reply
    .status(206)
    .header('Content-Range', `bytes ${range.start}-${range.end}/${attachment.sizeBytes}`)
    .header('Content-Length', range.end - range.start + 1)
    .send(body);
}

/**
 * POST cases/{id}/attachments/upload: the file is the raw request body, streamed to storage as it
 * arrives. In its own plugin so the catch-all body parser (which leaves the body unread) applies here only.
 */
const attachmentUploadRoutes: FastifyPluginAsyncZod<{ service: AttachmentService }> = async (app, { service }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.post(
    '/cases/:id/attachments/upload',
    {
      // The stream is never buffered; the service enforces MAX_ATTACHMENT_BYTES itself (413).
      bodyLimit: Number.MAX_SAFE_INTEGER,
      schema: {
        operationId: 'uploadAttachment',
        tags: ['attachments'],
        summary: 'Attaches one file (the raw request body) to the case; needs edit (case/update)',
        description:
          'Accepted: .pdf .doc .docx .xls .xlsx .csv .ppt .pptx .zip .gif .bmp .png .jpg .jpeg, at most 5 GB. ' +
          '415 "Unsupported files: {name}"; 409 "Duplicate files" when the case has the filename; 413 when too ' +
          'large; 422 for a filename with # % ? or otherwise invalid.',
        params: CaseParams,
        querystring: AttachmentUploadQuerySchema,
        response: { 201: AttachmentSchema },
      },
    },
    async (request, reply) => {
      const size = declaredLength(request.headers['content-length']);
      const prepared = await service.prepareUpload(request.caller, request.params.id, request.query.filename, size);
      return reply.status(201).send(await service.receiveUpload(prepared, request.raw));
    },
  );
};

export const attachmentRoutes: FastifyPluginAsyncZod<{ service: AttachmentService }> = async (app, { service }) => {
  app.get(
    '/cases/:id/attachments',
    {
      schema: {
        operationId: 'listAttachments',
        tags: ['attachments'],
        summary: 'The attachments of a case, by filename; anyone who may see the case',
        params: CaseParams,
        response: { 200: AttachmentListSchema },
      },
    },
    (request) => service.list(request.caller, request.params.id),
  );

  app.get(
    '/cases/:id/attachments/:attachmentId',
    {
      schema: {
        operationId: 'getAttachment',
        tags: ['attachments'],
        summary: 'One attachment with the url of its content',
        params: AttachmentParams,
        response: { 200: AttachmentDetailSchema },
      },
    },
    (request) => service.get(request.caller, request.params.id, request.params.attachmentId),
  );

  app.get(
    '/cases/:id/attachments/:attachmentId/content',
    {
      schema: {
        operationId: 'getAttachmentContent',
        tags: ['attachments'],
        summary: 'The file itself; a single byte Range is honoured (206)',
        description:
          'Sent as a download (Content-Disposition attachment with filename*), or inline for a PDF with ' +
          '?disposition=inline (the PDF preview).',
        params: AttachmentParams,
        querystring: AttachmentContentQuerySchema,
      },
    },
    async (request, reply) => {
      const { id, attachmentId } = request.params;
      const content = await service.openContent(request.caller, id, attachmentId, request.headers.range);
      return sendContent(reply, content, request.query.disposition === 'inline');
    },
  );

  app.delete(
    '/cases/:id/attachments/:attachmentId',
    {
      schema: {
        operationId: 'deleteAttachment',
        tags: ['attachments'],
        summary: 'Deletes an attachment and its file; needs edit (case/update)',
        params: AttachmentParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const left = await service.delete(request.caller, request.params.id, request.params.attachmentId);
      if (left.length > 0) request.log.warn({ blobKeys: left }, 'attachment deleted; its blob could not be removed');
      return reply.status(204).send(null);
    },
  );

  await app.register(attachmentUploadRoutes, { service });
};
