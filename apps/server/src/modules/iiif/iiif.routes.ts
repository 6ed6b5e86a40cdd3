import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../http/http-error.ts';
import { buildInfoJson, IIIF_PROFILE } from './info-json.ts';
import { IiifRequestError, parseImageRequest } from './iiif-params.ts';
import type { LayerAccess } from './layer-access.ts';
import type { PyramidCache } from './pyramid-cache.ts';
import type { TileCache } from './tile-cache.ts';
import { renderImage } from './tile-render.ts';

interface Deps {
  layers: LayerAccess;
  pyramids: PyramidCache;
  tiles: TileCache;
}

// A layer's pyramid never changes (a reprocess makes new layers), so its answers can be kept for a year.
const IMMUTABLE = 'private, max-age=31536000, immutable';

/** Headers of every answer, errors included; caching is only allowed on success. */
function common(reply: FastifyReply): FastifyReply {
  return reply.header('Access-Control-Allow-Origin', '*').header('Link', `<${IIIF_PROFILE}>;rel="profile"`);
}

function notModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('ETag', etag);
  if (request.headers['if-none-match'] !== etag) return false;
  reply.header('Cache-Control', IMMUTABLE);
  return true;
}

function serviceId(request: FastifyRequest, id: string): string {
  return `${request.protocol}://${request.host}/iiif/2/${encodeURIComponent(id)}`;
}

/**
 * IIIF Image API 2.1, compliance level 2, over the converted layers: `/iiif/2/{layerId}`. Every
 * request needs the bearer token and a case the caller may see.
 */
export const iiifRoutes: FastifyPluginAsync<Deps> = async (app, { layers, pyramids, tiles }) => {
  app.addHook('onClose', () => pyramids.closeAll());

  app.options('/iiif/2/*', { config: { public: true } }, (_request, reply) =>
    reply
      .header('Access-Control-Allow-Origin', '*')
      .header('Access-Control-Allow-Headers', 'Authorization, If-None-Match')
      .header('Access-Control-Allow-Methods', 'GET, OPTIONS')
      .header('Access-Control-Max-Age', '86400')
      .status(204)
      .send(),
  );

  app.get<{ Params: { id: string } }>('/iiif/2/:id', { config: { public: true } }, (request, reply) =>
    reply
      .header('Access-Control-Allow-Origin', '*')
      .redirect(`${serviceId(request, request.params.id)}/info.json`, 303),
  );

  app.get<{ Params: { id: string } }>('/iiif/2/:id/info.json', async (request, reply) => {
    const target = await layers.require(request.caller, request.params.id);
    const etag = `"info-${target.layerId}"`;
    common(reply);
    if (notModified(request, reply, etag)) return reply.status(304).send();
    const pyramid = await pyramids.get(target.pyramidKey);
    const jsonLd = (request.headers.accept ?? '').includes('application/ld+json');
    return reply
      .header('Cache-Control', IMMUTABLE)
      .header('Vary', 'Accept')
      .type(jsonLd ? 'application/ld+json;profile="http://iiif.io/api/image/2/context.json"' : 'application/json')
      .send(JSON.stringify(buildInfoJson(serviceId(request, request.params.id), pyramid.levels)));
  });

  app.get<{ Params: { id: string; region: string; size: string; rotation: string; qualityFormat: string } }>(
    '/iiif/2/:id/:region/:size/:rotation/:qualityFormat',
    // A viewer asks for hundreds of tiles a minute: they are logged only when something goes wrong.
    { logLevel: 'warn' },
    async (request, reply) => {
      const { id, ...parts } = request.params;
      const target = await layers.require(request.caller, id);
      const path = `${parts.region}/${parts.size}/${parts.rotation}/${parts.qualityFormat}`;
      // The layer and the parameters name the answer for good; no hash needed (quotes cannot occur in them).
      const etag = `"${target.layerId}/${path.replace(/"/g, '')}"`;
      common(reply);
      if (notModified(request, reply, etag)) return reply.status(304).send();
      const pyramid = await pyramids.get(target.pyramidKey);
      const full = pyramid.levels[0];
      if (full == null) throw HttpError.notFound();
      let image;
      try {
        image = await renderImage(pyramid, parseImageRequest(parts, full), tiles);
      } catch (error) {
        if (error instanceof IiifRequestError) throw new HttpError(error.statusCode, error.message);
        throw error;
      }
      return reply
        .header('Cache-Control', IMMUTABLE)
        .type(image.contentType)
        .header('Content-Length', image.body.length)
        .send(image.body);
    },
  );
};
