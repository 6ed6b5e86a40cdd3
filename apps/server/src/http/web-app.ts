import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Serves the built single-page app's files; returns false when there is no build to serve. */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<boolean> {
  const indexFile = path.join(webDist, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ webDist }, 'web app not built: run `npm run build`; only the API is served');
    return false;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    // Looked up per request, so a rebuild is served without a restart; a missing file falls through to the SPA.
    wildcard: true,
    // "/" is a folder to the static handler: without an index it would answer 403 instead of the app.
    index: 'index.html',
    // Vite fingerprints assets, so they never change under the same name; anything else must be revalidated.
    setHeaders: (reply, filePath) => {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return true;
}
