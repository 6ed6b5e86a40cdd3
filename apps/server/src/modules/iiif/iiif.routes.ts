import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../http/http-error.ts';
import { buildInfoJson, IIIF_PROFILE } from './info-json.ts';
import { IiifRequestError, parseImageRequest } from './iiif-params.ts';
import type { LayerAccess, LayerTarget } from './layer-access.ts';
import { renderFromOriginal } from './original-render.ts';
import type { OriginalSource } from './original-source.ts';
import type { PyramidCache } from './pyramid-cache.ts';
import type { TileCache } from './tile-cache.ts';
import { renderImage } from './tile-render.ts';

interface Deps {
  layers: LayerAccess;
  pyramids: PyramidCache;
  originals: OriginalSource;
  tiles: TileCache;
}

// A layer's pyramid never changes (a reprocess makes new layers), so its answers can be kept for a year.
const IMMUTABLE = 'private, max-age=31536000, immutable';
/**
 * What is cut from an original is replaced by the pyramid's tiles within seconds to minutes: kept briefly, so
 * no cache holds it past the hand-over (its ETag differs from the pyramid tile's, so revalidation fetches that).
 */
const BRIEF = 'private, max-age=30';
const TILE_SIZE = { width: 512, height: 512 };

/** Headers of every answer, errors included; caching is only allowed on success. */
function common(reply: FastifyReply): FastifyReply {
  return reply.header('Access-Control-Allow-Origin', '*').header('Link', `<${IIIF_PROFILE}>;rel="profile"`);
}

function cacheControl(target: LayerTarget): string {
  return target.fromOriginal ? BRIEF : IMMUTABLE;
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
  const { plan } = await originals.open(target.pyramidKey);
  if (plan == null) throw HttpError.notFound();
  return { levels: plan.levels, tile: TILE_SIZE };
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
    '/iiif/2/:id/:region/:size/:rotation/:qualityFormat',
    // A viewer asks for hundreds of tiles a minute: they are logged only when something goes wrong.
    { logLevel: 'warn' },
    async (request, reply) => {
      const { id, ...parts } = request.params;
      const target = await layers.require(request.caller, id);
      const path = `${parts.region}/${parts.size}/${parts.rotation}/${parts.qualityFormat}`;
      // The layer and the parameters name the answer for good; no hash needed (quotes cannot occur in them).
      const source = target.fromOriginal ? 'original:' : '';
      const etag = `"${source}${target.layerId}/${path.replace(/"/g, '')}"`;
      common(reply);
      if (notModified(request, reply, etag, target)) return reply.status(304).send();
      let image;
      try {
        if (target.fromOriginal) {
          const { original, plan } = await originals.open(target.pyramidKey);
          const full = plan?.levels[0];
          if (plan == null || full == null) throw HttpError.notFound();
          image = await renderFromOriginal(original, plan, parseImageRequest(parts, full), tiles);
        } else {
          const pyramid = await pyramids.get(target.pyramidKey);
          const full = pyramid.levels[0];
          if (full == null) throw HttpError.notFound();
          image = await renderImage(pyramid, parseImageRequest(parts, full), tiles);
        }
      } catch (error) {
        if (error instanceof IiifRequestError) throw new HttpError(error.statusCode, error.message);
        throw error;
      }
      return reply
        .header('Cache-Control', cacheControl(target))
        .type(image.contentType)
        .header('Content-Length', image.body.length)
        .send(image.body);
    },
  );
};
