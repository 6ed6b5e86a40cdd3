import { expect } from 'vitest';
import sharp from 'sharp';
import type { Page } from 'playwright-core';

/** The parts of the CHAOS journey whose failures it counts. */
export type ChaosPart = 'cases' | 'uploads' | 'tiles';

/** A IIIF tile, not info.json: /iiif/2/<layerId>/<region>/<size>/<rotation>/<quality>.<format>. */
export const TILE_PATH = /^\/iiif\/2\/[^/]+\/[^/]+\/[^/]+\/[^/]+\/[^/]+\.(jpg|png)$/;

/** The part a request path (or the server's route pattern for it) belongs to. */
export function chaosPart(path: string): ChaosPart | undefined {
  if (path.startsWith('/api/v1/cases')) return 'cases';
  if (path.startsWith('/api/v1/uploads')) return 'uploads';
  if (TILE_PATH.test(path) || path.startsWith('/iiif/2/:id/:region/')) return 'tiles';
  return undefined;
}

/** The 503s CHAOS gave, per part, as the server counts them (chaos_failures_total on GET /metrics, for this machine). */
export async function serverChaosFailures(serverUrl: string): Promise<Record<ChaosPart, number>> {
  const text = await (await fetch(`${serverUrl}/metrics`)).text();
  const counts: Record<ChaosPart, number> = { cases: 0, uploads: 0, tiles: 0 };
  for (const [, route = '', value = '0'] of text.matchAll(/^chaos_failures_total\{route="([^"]+)"\} (\d+)$/gm)) {
    const part = chaosPart(route);
    if (part) counts[part] += Number(value);
  }
  return counts;
}

/** The 503s CHAOS gave that the page met (its X-Chaos header), per part, from now on. */
export function countChaosFailures(page: Page): Record<ChaosPart, number> {
  const seen: Record<ChaosPart, number> = { cases: 0, uploads: 0, tiles: 0 };
  page.on('response', (response) => {
    if (response.status() !== 503 || response.headers()['x-chaos'] !== 'error') return;
    const part = chaosPart(new URL(response.url()).pathname);
    if (part) seen[part] += 1;
  });
  return seen;
}

/**
 * Waits until `done`, pressing Retry on every error state shown meanwhile, as a user would where the app's own
 * retries did not make it; the first error state met is saved as a screenshot by `onErrorState`. Resolves with the
 * number of Retry presses.
 */
export async function untilShown(
  page: Page,
  done: () => Promise<boolean>,
  onErrorState: () => Promise<unknown>,
  timeout = 90_000,
): Promise<number> {
  let presses = 0;
  await expect
    .poll(
      async () => {
        if (await done()) return true;
        for (const retry of await page.getByRole('button', { name: /^(Retry|再試行)$/ }).all()) {
          if (!(await retry.isVisible())) continue;
          if (presses === 0) await onErrorState();
          await retry.click().catch(() => undefined);
          presses += 1;
        }
        return done();
      },
      { timeout, interval: 1000 },
    )
    .toBe(true);
  return presses;
}

/**
 * Follows the page's tile requests from now on; `settled` waits until none has been in flight for `quietMs` (a failed
 * tile is taken up again after 2, 4, then 8 s), so the slide shows all it will show.
 */
export function trackTiles(page: Page): { settled(quietMs?: number): Promise<void> } {
  let inFlight = 0;
  let lastActivity = Date.now();
  const isTile = (url: string) => TILE_PATH.test(new URL(url).pathname);
  page.on('request', (request) => {
    if (!isTile(request.url())) return;
    inFlight += 1;
    lastActivity = Date.now();
  });
  const finished = (request: { url(): string }) => {
    if (!isTile(request.url())) return;
    inFlight -= 1;
    lastActivity = Date.now();
  };
  page.on('requestfinished', finished);
  page.on('requestfailed', finished);
  return {
    settled: (quietMs = 10_000) =>
      expect
        .poll(() => inFlight <= 0 && Date.now() - lastActivity > quietMs, { timeout: 120_000, interval: 500 })
        .toBe(true),
  };
}

/**
 * The 32 × 32 blocks where two screenshots of the same view differ visibly (mean difference over 8 of 255 per
 * channel): a tile missing in one shows as a block of the level below it, blurred, or of the background.
 */
export async function differingBlocks(
  first: Buffer,
  second: Buffer,
  skip: readonly { x: number; y: number; width: number; height: number }[] = [],
  block = 32,
): Promise<string[]> {
  const [a, b] = await Promise.all(
    [first, second].map((png) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })),
  );
  if (a == null || b == null) throw new Error('no screenshot');
  const { width, height } = a.info;
  expect([b.info.width, b.info.height]).toEqual([width, height]);
  const differing: string[] = [];
  for (let top = 0; top < height; top += block) {
    for (let left = 0; left < width; left += block) {
      const skipped = skip.some(
        (box) => left < box.x + box.width && left + block > box.x && top < box.y + box.height && top + block > box.y,
      );
      if (skipped) continue;
      let sum = 0;
      let count = 0;
      for (let y = top; y < Math.min(top + block, height); y += 1) {
        for (let x = left; x < Math.min(left + block, width); x += 1) {
          for (let channel = 0; channel < 3; channel += 1) {
            const index = (y * width + x) * 3 + channel;
            sum += Math.abs((a.data[index] ?? 0) - (b.data[index] ?? 0));
            count += 1;
          }
        }
      }
      if (sum / count > 8) differing.push(`${left},${top}: ${(sum / count).toFixed(1)}`);
    }
  }
  return differing;
}

/** Mean brightness (0–255) of a screenshot: a navigator that drew nothing is black. */
export async function meanBrightness(png: Buffer): Promise<number> {
  const { channels } = await sharp(png).removeAlpha().stats();
  return channels.reduce((sum, channel) => sum + channel.mean, 0) / channels.length;
}
