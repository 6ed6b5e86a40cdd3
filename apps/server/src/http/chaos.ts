import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Counter } from 'prom-client';
import { MESSAGES, type ChaosSettings, type ErrorResponse } from '@pathology/contract';

/** A CHAOS value that does not read as `delay:MIN-MAX,errors:RATE,routes:PATTERN;PATTERN`. */
export class ChaosSettingError extends Error {}

const DEFAULT_ROUTES = ['/api/*'];

function parseDelay(value: string): [number, number] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(value);
  if (match == null) throw new ChaosSettingError(`delay must be milliseconds or a range MIN-MAX, not "${value}"`);
  const min = Number(match[1]);
  const max = Number(match[2] ?? match[1]);
  if (max < min) throw new ChaosSettingError(`delay ${value}: the range must not end below its start`);
  return [min, max];
}

function parseRate(value: string): number {
  const rate = Number(value);
  if (value === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new ChaosSettingError(`errors must be a share between 0 and 1, not "${value}"`);
  }
  return rate;
}

/**
 * Reads CHAOS, e.g. `delay:200-700,errors:0.05,routes:/api/v1/cases*;/api/v1/images*`: each chosen request waits a
 * random time in the range and fails with the given share. Routes are paths with `*` for any characters; all of
 * /api/ without them.
 */
export function parseChaos(text: string): ChaosSettings {
  const settings: ChaosSettings = { delayMs: [0, 0], errorRate: 0, routes: DEFAULT_ROUTES };
  for (const part of text.split(',').map((entry) => entry.trim())) {
    const colon = part.indexOf(':');
    const key = colon === -1 ? part : part.slice(0, colon);
    const value = colon === -1 ? '' : part.slice(colon + 1).trim();
    if (key === 'delay') settings.delayMs = parseDelay(value);
    else if (key === 'errors') settings.errorRate = parseRate(value);
    else if (key === 'routes') {
      const routes = value.split(';').map((route) => route.trim());
      if (routes.some((route) => !route.startsWith('/'))) {
        throw new ChaosSettingError(`routes must be paths starting with /, not "${value}"`);
      }
      settings.routes = routes;
    } else throw new ChaosSettingError(`unknown part "${part}" (delay, errors and routes are known)`);
  }
  if (settings.delayMs[1] === 0 && settings.errorRate === 0) {
    throw new ChaosSettingError('it sets neither a delay nor an error share, so it would change nothing');
  }
  return settings;
}

function routeMatcher(routes: readonly string[]): (path: string) => boolean {
  const patterns = routes.map(
    (route) => new RegExp(`^${route.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`),
  );
  return (path) => patterns.some((pattern) => pattern.test(path));
}

/**
 * Makes the chosen routes of this server slow and unreliable, to show that the web app recovers (retries, error
 * states, nothing lost). Failures are the 503 the app already meets when the database is briefly away.
 */
export function registerChaos(
  app: FastifyInstance,
  settings: ChaosSettings,
  { failures, random = Math.random }: { failures?: Counter<'route'>; random?: () => number } = {},
): void {
  const chosen = routeMatcher(settings.routes);
  const [min, max] = settings.delayMs;
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? request.url;
    if (!chosen(path)) return;
    const delay = max > min ? min + Math.round(random() * (max - min)) : min;
    if (delay > 0) await sleep(delay);
    if (random() < settings.errorRate) {
      failures?.inc({ route: request.routeOptions.url ?? 'unmatched' });
      return reply
        .status(503)
        .header('Retry-After', '1')
        .header('X-Chaos', 'error')
        .send({ message: MESSAGES.serviceUnavailable } satisfies ErrorResponse);
    }
  });
}
