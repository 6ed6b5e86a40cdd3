import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import { bearerToken } from '../../auth/authenticate.ts';
import type { CallerCache } from '../../auth/caller-cache.ts';
import { securityHeadersOf, type SecurityHeaders } from '../../http/security-headers.ts';
import type { LayerAccess } from './layer-access.ts';
import {
  cachedPyramidTile,
  cacheControl,
  IIIF_HEADERS,
  renderPyramidTile,
  tileEtag,
  type TileParts,
  type TileSources,
} from './tile-answer.ts';
import type { RenderedImage } from './tile-render.ts';

/** Fastify's own request handler, which answers whatever the lane leaves. */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface TileLaneDeps {
  callers: Pick<CallerCache, 'peek'>;
  layers: Pick<LayerAccess, 'peek'>;
  sources: Pick<TileSources, 'pyramids' | 'tiles'>;
  headers: SecurityHeaders;
  /** True once the process drains: its 503 with Retry-After is Fastify's to give. */
  draining(): boolean;
  /** Counts an answer as the general hooks would (timing histogram, lane counter). */
  answered(status: number, seconds: number): void;
}

// Plain ASCII parts only: anything percent-encoded or with a query is left to Fastify's decoding.
const TILE_PATH = /^\/iiif\/2\/([0-9a-f-]{36})\/([\w.,:!]+)\/([\w.,:!]+)\/(!?\d+)\/(\w+\.\w+)$/i;

/**
 * The lean path of pyramid tiles, before Fastify: a viewer asks hundreds a minute with the same token, and the
 * general hooks (routing, logging, timing, drain tracking) cost more than the tile itself. It takes only a GET
 * whose token, caller and "may see" answer are already remembered (cacheCallers, layer access: the same caches
 * and times as the route) for a layer with a pyramid; everything else, and any failure before the answer is
 * written, goes to Fastify, which answers with its own rules (404 for another tenant, 400 for bad parameters).
 * The answer carries the same security, CORS and caching headers as the route's.
 */
export function createTileLane() {
  let deps: TileLaneDeps | undefined;
  /** The headers every answer of the lane shares (security, CORS, IIIF profile), taken once when it opens. */
  let shared: string[] = [];

  function write(
    lane: TileLaneDeps,
    response: ServerResponse,
    started: number,
    validators: string[],
    image: RenderedImage | null,
  ): void {
    const status = image == null ? 304 : 200;
    const length = image == null ? [] : ['Content-Type', image.contentType, 'Content-Length', String(image.body.length)];
    response.writeHead(status, [...shared, ...validators, ...length]);
    response.end(image?.body);
    lane.answered(status, (performance.now() - started) / 1000);
  }

  return {
    /** Called once the IIIF scope has built its caches (app.ts); until then every request goes to Fastify. */
    open(laneDeps: TileLaneDeps): void {
      deps = laneDeps;
      shared = [...securityHeadersOf(laneDeps.headers, '/iiif/2/'), ...Object.entries(IIIF_HEADERS).flat()];
    },
    /**
     * Answers the request and returns true, or returns false and leaves it to `fallback` untouched. A
     * revalidation and a cached tile of an open pyramid (a warm viewer's tiles) are answered without a promise.
     */
    take(request: IncomingMessage, response: ServerResponse, fallback: RequestHandler): boolean {
      const lane = deps;
      if (lane == null || request.method !== 'GET' || lane.draining()) return false;
      const match = TILE_PATH.exec(request.url ?? '');
      if (match == null) return false;
      const token = bearerToken(request.headers.authorization);
      const caller = token == null ? undefined : lane.callers.peek(token);
      if (caller == null) return false;
      const [, layerId, region, size, rotation, qualityFormat] = match as unknown as string[];
      const target = lane.layers.peek(caller, layerId!);
      if (target == null || target.fromOriginal) return false;
      const started = performance.now();
      const parts: TileParts = { region: region!, size: size!, rotation: rotation!, qualityFormat: qualityFormat! };
      const etag = tileEtag(target, parts);
      const validators = ['ETag', etag, 'Cache-Control', cacheControl(target)];
      if (request.headers['if-none-match'] === etag) {
        write(lane, response, started, validators, null);
        return true;
      }
      const cached = cachedPyramidTile(target.pyramidKey, parts, lane.sources);
      if (cached != null) {
        write(lane, response, started, validators, cached);
        return true;
      }
      renderPyramidTile(target.pyramidKey, parts, lane.sources)
        .then((image) => write(lane, response, started, validators, image))
        .catch(() => {
          if (!response.headersSent) fallback(request, response);
        });
      return true;
    },
  };
}

export type TileLane = ReturnType<typeof createTileLane>;

/** Fastify's `serverFactory`: an HTTP server whose requests pass the lane first. */
export function tileLaneServer(lane: TileLane): FastifyServerFactory {
  return (handler, options) => {
    const server = http.createServer((request, response) => {
      if (!lane.take(request, response, handler)) handler(request, response);
    });
    // What Fastify sets on a server it makes itself (its defaults already applied to the options): uploads may
    // take longer than Node's 5-minute request timeout.
    const timeouts = options as { keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number };
    server.keepAliveTimeout = timeouts.keepAliveTimeout;
    server.requestTimeout = timeouts.requestTimeout;
    server.setTimeout(timeouts.connectionTimeout);
    return server;
  };
}
