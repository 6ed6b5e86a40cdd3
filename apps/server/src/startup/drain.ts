import type { FastifyInstance } from 'fastify';

/**
 * Stops taking connections and lets requests in flight finish; any still open after `graceMs`
 * (a stalled download, an upload mid-body) are cut, as the platform would cut them anyway.
 * Fastify answers requests arriving meanwhile on kept-alive connections with 503, and closes idle ones.
 */
export async function drainHttp(app: FastifyInstance, graceMs: number): Promise<void> {
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}
