import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../http/http-error.ts';
import { buildInfoJson } from './info-json.ts';
import type { LayerAccess, LayerTarget } from './layer-access.ts';
import type { OriginalSource } from './original-source.ts';
import type { PyramidCache } from './pyramid-cache.ts';
import { cacheControl, IIIF_HEADERS, renderTile, TILE_ROUTE, tileEtag, type TileSources } from './tile-answer.ts';

interface Deps extends TileSources {
  layers: LayerAccess;
}

const TILE_SIZE = { width: 512, height: 512 };

/** Headers of every answer, errors included; caching is only allowed on success. */
function common(reply: FastifyReply): FastifyReply {
  return reply.headers(IIIF_HEADERS);
}

function notModified(request: FastifyRequest, reply: FastifyReply, etag: string, target: LayerTarget): boolean {
  reply.header('ETag', etag);
  if (request.headers['if-none-match'] !== etag) return false;
  reply.header('Cache-Control', cacheControl(target));
  return true;
}

/** The levels of a layer's pyramid, or of the pyramid its original will become; null when the original cannot be served. */
async function levelSizes(target: LayerTarget, pyramids: PyramidCache, originals: OriginalSource) {
  if (!target.fromOriginal) {
    const pyramid = await pyramids.get(target.pyramidKey);
    const full = pyramid.levels[0];
    const tile = { width: full?.tileWidth ?? TILE_SIZE.width, height: full?.tileHeight ?? TILE_SIZE.height };
    return { levels: pyramid.levels, tile };
  }
  const served = await originals.served(target.pyramidKey);
  if (served == null) throw HttpError.notFound();
  return { levels: served.levels, tile: TILE_SIZE };
}

function serviceId(request: FastifyRequest, id: string): string {
  return `${request.protocol}://${request.host}/iiif/2/${encodeURIComponent(id)}`;
}

/**
 * IIIF Image API 2.1, compliance level 2, over the converted layers: `/iiif/2/{layerId}`, and over the
 * originals of layers whose pyramid is still being built (same info.json, tiles cut from the original). Every
 * request needs the bearer token and a case the caller may see.
 */
export const iiifRoutes: FastifyPluginAsync<Deps> = async (app, { layers, pyramids, originals, tiles }) => {
  app.addHook('onClose', async () => {
    await Promise.all([pyramids.closeAll(), originals.closeAll()]);
  });

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
    // The same before and after the hand-over: the document is too.
    const etag = `"info-${target.layerId}"`;
    common(reply);
    if (notModified(request, reply, etag, target)) return reply.status(304).send();
    const { levels, tile } = await levelSizes(target, pyramids, originals);
    const jsonLd = (request.headers.accept ?? '').includes('application/ld+json');
    return reply
      .header('Cache-Control', cacheControl(target))
      .header('Vary', 'Accept')
      .type(jsonLd ? 'application/ld+json;profile="http://iiif.io/api/image/2/context.json"' : 'application/json')
      .send(JSON.stringify(buildInfoJson(serviceId(request, request.params.id), levels, tile)));
  });

  app.get<{ Params: { id: string; region: string; size: string; rotation: string; qualityFormat: string } }>(
    TILE_ROUTE,
    // A viewer asks for hundreds of tiles a minute: they are logged only when something goes wrong.
    { logLevel: 'warn' },
    async (request, reply) => {
      const { id, ...parts } = request.params;
      const target = await layers.require(request.caller, id);
      common(reply);
      if (notModified(request, reply, tileEtag(target, parts), target)) return reply.status(304).send();
      const image = await renderTile(target, parts, { pyramids, originals, tiles });
      return reply
        .header('Cache-Control', cacheControl(target))
        .type(image.contentType)
        .header('Content-Length', image.body.length)
        .send(image.body);
    },
  );
};
