import type { FastifyInstance } from 'fastify';
import { registerAuthentication } from '../../auth/authenticate.ts';
import type { CallerCache } from '../../auth/caller-cache.ts';
import type { Db } from '../../db/client.ts';
import type { DicomAccess } from './dicom-access.ts';
import { createDicomSearch } from './dicom-search.ts';
import { qidoRoutes } from './qido.routes.ts';
import { wadoRoutes } from './wado.routes.ts';

export const DICOMWEB_ROOT = '/dicomweb';

/**
 * The DICOMweb read side (issue 45) under one root: QIDO-RS and WADO-RS over every slide the caller may see, with
 * the bearer token of every route. The caller cache is the tiles' one: a viewer sends frames as often as tiles.
 * Pages of the configured viewer origins may read it from the browser (CORS); no other origin, by default none.
 */
export async function registerDicomweb(
  app: FastifyInstance,
  deps: { db: Db; access: DicomAccess; callers: CallerCache; corsOrigins: readonly string[] },
): Promise<void> {
  const origins = new Set(deps.corsOrigins);
  await app.register(
    async (dicomweb) => {
      // Before the token check: a viewer on another origin must be able to read a 401 to sign in again.
      dicomweb.addHook('onRequest', async (request, reply) => {
        reply.header('Vary', 'Origin');
        const origin = request.headers.origin;
        if (origin == null || !origins.has(origin)) return;
        reply
          .header('Access-Control-Allow-Origin', origin)
          .header('Cross-Origin-Resource-Policy', 'cross-origin')
          .header('Access-Control-Expose-Headers', 'Content-Type, Content-Length, Warning, WWW-Authenticate');
      });
      dicomweb.options('/*', { config: { public: true } }, (request, reply) => {
        if (!origins.has(request.headers.origin ?? '')) return reply.status(204).send();
        return reply
          .header('Access-Control-Allow-Methods', 'GET, OPTIONS')
          .header('Access-Control-Allow-Headers', 'Authorization, Accept, If-None-Match')
          .header('Access-Control-Max-Age', '86400')
          .status(204)
          .send();
      });
      registerAuthentication(dicomweb, deps.callers);
      const search = createDicomSearch(deps.db);
      await dicomweb.register(qidoRoutes, { access: deps.access, search });
      await dicomweb.register(wadoRoutes, { access: deps.access, search });
    },
    { prefix: DICOMWEB_ROOT },
  );
}
