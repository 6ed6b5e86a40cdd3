import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * JSON text written elsewhere (by PostgreSQL, or put together from stored JSON), sent as it is: never parsed and
 * serialised again; the route's response schema documents the shape.
 */
export function sendJsonText(reply: FastifyReply, body: string | Buffer | Readable, status = 200): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}
