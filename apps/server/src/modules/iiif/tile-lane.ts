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

/** A tile URL's answer as the lane worked it out: the next request for it skips parsing and header building. */
interface KnownAnswer {
  layerId: string;
  pyramidKey: string;
  etag: string;
  /** The tile cache's entry that is the body, and its length as the headers give it. */
  cacheKey: string;
  length: number;
  headers: string[];
  notModified: string[];
}

/** URLs whose answers are remembered at most (a few hundred bytes each); the map starts afresh beyond. */
const MAX_KNOWN = 4_096;

/** A request header's first value, read from the raw pairs: building `request.headers` costs more than the tile. */
function rawHeader(request: IncomingMessage, name: string): string | undefined {
  const raw = request.rawHeaders;
  for (let at = 0; at < raw.length; at += 2) {
    const key = raw[at]!;
    if (key.length === name.length && key.toLowerCase() === name) return raw[at + 1];
  }
  return undefined;
}

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
  const known = new Map<string, KnownAnswer>();

  /** An answer's headers: those the lane shares, its validators, and its body's type and length when it has one. */
  function headersOf(validators: string[], image: RenderedImage | null): string[] {
    if (image == null) return [...shared, ...validators];
    return [...shared, ...validators, 'Content-Type', image.contentType, 'Content-Length', String(image.body.length)];
  }

  /** Writes a 200 with its body, or a 304 without one, and counts it. */
  function send(lane: TileLaneDeps, response: ServerResponse, started: number, headers: string[], body?: Buffer) {
    const status = body == null ? 304 : 200;
    response.writeHead(status, headers).end(body);
    lane.answered(status, (performance.now() - started) / 1000);
  }

  /** Answers a URL answered before from what was kept of it, or returns false when its tile left the cache. */
  function answerKnown(lane: TileLaneDeps, request: IncomingMessage, response: ServerResponse, answer: KnownAnswer) {
    const started = performance.now();
    if (rawHeader(request, 'if-none-match') === answer.etag) {
      send(lane, response, started, answer.notModified);
      return true;
    }
    const body = lane.sources.tiles.peek(answer.cacheKey);
    if (body == null || body.length !== answer.length) return false;
    send(lane, response, started, answer.headers, body);
    return true;
  }

  function remember(url: string, answer: KnownAnswer): void {
    if (known.size >= MAX_KNOWN) known.clear();
    known.set(url, answer);
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
      const url = request.url ?? '';
      const answer = known.get(url);
      let match = answer == null ? TILE_PATH.exec(url) : null;
      if (answer == null && match == null) return false;
      const token = bearerToken(rawHeader(request, 'authorization'));
      const caller = token == null ? undefined : lane.callers.peek(token);
      if (caller == null) return false;
      const layerId = answer?.layerId ?? match![1]!;
      // The same rights as every request: the caller's cached "may see" of this layer, asked each time.
      const target = lane.layers.peek(caller, layerId);
      if (target == null || target.fromOriginal) return false;
      if (answer?.pyramidKey === target.pyramidKey && answerKnown(lane, request, response, answer)) return true;
      match ??= TILE_PATH.exec(url);
      if (match == null) return false;
      const started = performance.now();
      const [, , region, size, rotation, qualityFormat] = match as unknown as string[];
      const parts: TileParts = { region: region!, size: size!, rotation: rotation!, qualityFormat: qualityFormat! };
      const etag = tileEtag(target, parts);
      const validators = ['ETag', etag, 'Cache-Control', cacheControl(target)];
      if (rawHeader(request, 'if-none-match') === etag) {
        send(lane, response, started, headersOf(validators, null));
        return true;
      }
      const cached = cachedPyramidTile(target.pyramidKey, parts, lane.sources);
      if (cached != null) {
        const headers = headersOf(validators, cached);
        send(lane, response, started, headers, cached.body);
        if (cached.cacheKey != null) {
          const { pyramidKey } = target;
          const [cacheKey, length, notModified] = [cached.cacheKey, cached.body.length, headersOf(validators, null)];
          remember(url, { layerId, pyramidKey, etag, cacheKey, length, headers, notModified });
        }
        return true;
      }
      renderPyramidTile(target.pyramidKey, parts, lane.sources)
        .then((image) => send(lane, response, started, headersOf(validators, image), image.body))
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
