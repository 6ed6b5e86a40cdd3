import { OutboxListSchema, OutboxMailSchema } from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { listOutbox, readOutboxEntry } from './mailer.ts';

/** The outbox of an installation without SMTP: super users read the invitations it would have sent. */
export const outboxRoutes: FastifyPluginAsyncZod<{ outboxDir: string; capabilities: CapabilitiesService }> = async (
  app,
  { outboxDir, capabilities },
) => {
  app.get(
    '/outbox',
    {
      schema: {
        operationId: 'listOutbox',
        tags: ['mail'],
        summary: 'Mails written to DATA_DIR/outbox (no SMTP_URL), newest first; super users only',
        response: { 200: OutboxListSchema },
      },
    },
    async (request) => {
      await capabilities.requireRoleCheck(request.caller, 'isSuperUser');
      const entries = await listOutbox(outboxDir);
      return { data: entries.map(({ id, to, subject, text, sentAt }) => ({ id, to, subject, text, sentAt })) };
    },
  );

  app.get(
    '/outbox/:id',
    {
      schema: {
        operationId: 'getOutboxMail',
        tags: ['mail'],
        summary: 'One mail of the outbox; super users only',
        params: z.object({ id: z.string() }),
        response: { 200: OutboxMailSchema },
      },
    },
    async (request) => {
      await capabilities.requireRoleCheck(request.caller, 'isSuperUser');
      const entry = await readOutboxEntry(outboxDir, request.params.id);
      if (entry == null) throw HttpError.notFound();
      return { id: entry.id, to: entry.to, subject: entry.subject, text: entry.text, sentAt: entry.sentAt };
    },
  );
};
