import type { ServerResponse } from 'node:http';
import { MESSAGES, type ErrorResponse } from '@pathology/contract';
import type { FastifyInstance } from 'fastify';

/** Seconds a client refused by a draining process waits before trying again (by then on another or a restarted one). */
export const DRAIN_RETRY_AFTER_SECONDS = 5;
/** How long a connection answered at the end of the grace period stays open, so the client reads the answer. */
const ANSWER_LINGER_MS = 1_000;

const DRAIN_ANSWER = JSON.stringify({ message: MESSAGES.serviceUnavailable } satisfies ErrorResponse);

interface DrainState {
  draining: boolean;
  /** Responses not finished yet, of requests taken before the drain began. */
  open: Set<ServerResponse>;
}

const states = new WeakMap<FastifyInstance, DrainState>();

/**
 * Lets drainHttp answer for itself (register on the root app before its routes, with Fastify's own
 * `return503OnClosing` off: that bare 503 says nothing of when to try again, which a tus client needs to
 * resume): requests arriving while the app drains get 503 with Retry-After.
 */
export function registerDrainAnswers(app: FastifyInstance): void {
  const state: DrainState = { draining: false, open: new Set() };
  states.set(app, state);
  app.addHook('onRequest', async (_request, reply) => {
    if (state.draining) {
      return reply
        .status(503)
        .header('Retry-After', String(DRAIN_RETRY_AFTER_SECONDS))
        .header('Connection', 'close')
        .type('application/json')
        .send(DRAIN_ANSWER);
    }
    const response = reply.raw;
    state.open.add(response);
    response.once('close', () => state.open.delete(response));
  });
}

/** True once drainHttp began on the app: requests that bypass its hooks (tile-lane.ts) ask here. */
export function isDraining(app: FastifyInstance): boolean {
  return states.get(app)?.draining === true;
}

/** A request not answered yet (an upload whose body still arrives) is told to try again rather than cut without a word. */
function answerUnanswered(state: DrainState): void {
  for (const response of state.open) {
    if (response.headersSent || response.writableEnded) continue;
    response.writeHead(503, {
      'Retry-After': String(DRAIN_RETRY_AFTER_SECONDS),
      Connection: 'close',
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(DRAIN_ANSWER)),
    });
    response.end(DRAIN_ANSWER);
  }
}

/**
 * Stops taking connections and lets requests in flight finish; any still open after `graceMs`
 * (a stalled download, an upload mid-body) are cut, as the platform would cut them anyway, those
 * not answered yet after a 503 with Retry-After. Requests arriving meanwhile on kept-alive
 * connections get 503 with Retry-After too (registerDrainAnswers), and idle ones are closed.
 */
export async function drainHttp(app: FastifyInstance, graceMs: number): Promise<void> {
  const state = states.get(app);
  if (state != null) state.draining = true;
  let cut: NodeJS.Timeout | undefined;
  const grace = setTimeout(() => {
    if (state != null) answerUnanswered(state);
    cut = setTimeout(() => app.server.closeAllConnections(), state == null ? 0 : ANSWER_LINGER_MS);
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(grace);
    clearTimeout(cut);
  }
}
