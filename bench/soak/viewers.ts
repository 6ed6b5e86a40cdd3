import { setTimeout as sleep } from 'node:timers/promises';
import { DETECTION_TILE_SIZE } from '@pathology/contract';
import type { Answer, Client } from './client.ts';
import type { Slide, World } from './world.ts';

/** Tiles a viewer asks for at once when it pans or zooms: a 1280 × 800 screen of 512-px tiles, 3 × 2 of them. */
const BURST_COLUMNS = 3;
const BURST_ROWS = 2;
/** Seconds a person looks before the next step, at least and at most. */
const THINK_S: [number, number] = [1, 4];
const BURSTS_PER_SLIDE: [number, number] = [3, 8];
/** After a failed answer, as the web app's lists try again. */
const AFTER_FAILURE_MS = 2_000;

interface TileInfo {
  width: number;
  height: number;
  tiles: { width: number; scaleFactors: number[] }[];
}

const between = (random: () => number, [low, high]: [number, number]) => low + random() * (high - low);
const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), one stream per viewer. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Failed extends Error {}

/** Throws on an answer the web app would show as an error, so the viewer pauses and starts over. */
function ok(answer: Answer): Answer {
  if (answer.status < 200 || answer.status >= 300) throw new Failed(String(answer.status));
  return answer;
}

/** One person at a human pace: the case list, a search, a slide opened, panned and zoomed in bursts, its annotations. */
export async function runViewer(client: Client, world: World, seed: number, until: number): Promise<void> {
  const random = seeded(seed);
  const think = () => sleep(between(random, THINK_S) * 1000);
  // Viewers arrive over the first seconds, not all in the same millisecond.
  await sleep(random() * 10_000);
  while (Date.now() < until) {
    try {
      ok(await client.send('API read', 'POST', '/api/v1/cases/search', { limit: 20 }));
      await think();
      if (random() < 0.5) {
        const value = `${world.caseNumberPrefix}-00${Math.floor(random() * 10)}*`;
        ok(
          await client.send('API read', 'POST', '/api/v1/cases/search', {
            query: [{ field: 'caseNumber', operator: 'is-like', value }],
            limit: 20,
          }),
        );
        await think();
      }
      await viewSlide(client, pick(random, world.slides), world, random, until);
    } catch (error) {
      if (!(error instanceof Failed)) throw error;
      await sleep(AFTER_FAILURE_MS);
    }
  }
}

async function viewSlide(client: Client, slide: Slide, world: World, random: () => number, until: number) {
  const { imageId, layer } = slide;
  const layerPath = `/api/v1/images/${imageId}/layers/${layer.id}`;
  ok(await client.call('API read', 'GET', `/api/v1/cases/${slide.caseId}`));
  ok(await client.call('API read', 'GET', `/api/v1/images/${imageId}`));
  const info = ok(await client.call('API read', 'GET', `/iiif/2/${layer.id}/info.json`)).json<TileInfo>();
  await Promise.all([
    client.call('API read', 'GET', `${layerPath}/drawings`).then(ok),
    client.call('API read', 'GET', `/api/v1/images/${imageId}/notes`).then(ok),
    client.call('API read', 'GET', `${layerPath}/detections`).then(ok),
  ]);
  const withDetections = slide === world.target;
  const bursts = Math.round(between(random, BURSTS_PER_SLIDE));
  for (let burst = 0; burst < bursts && Date.now() < until; burst += 1) {
    await tileBurst(client, slide, info, random, withDetections);
    await sleep(between(random, THINK_S) * 1000);
  }
}

/** One view's tiles at once (a browser asks for them in parallel), and its detection tiles when the slide has them. */
async function tileBurst(client: Client, slide: Slide, info: TileInfo, random: () => number, withDetections: boolean) {
  const tile = info.tiles[0]!.width;
  const scale = pick(random, info.tiles[0]!.scaleFactors);
  const side = tile * scale;
  const columns = Math.ceil(info.width / side);
  const rows = Math.ceil(info.height / side);
  const left = Math.floor(random() * Math.max(1, columns - BURST_COLUMNS + 1));
  const top = Math.floor(random() * Math.max(1, rows - BURST_ROWS + 1));
  const requests: Promise<Answer>[] = [];
  for (let column = left; column < Math.min(columns, left + BURST_COLUMNS); column += 1) {
    for (let row = top; row < Math.min(rows, top + BURST_ROWS); row += 1) {
      const [x, y] = [column * side, row * side];
      const [w, h] = [Math.min(side, info.width - x), Math.min(side, info.height - y)];
      const url = `/iiif/2/${slide.layer.id}/${x},${y},${w},${h}/${Math.ceil(w / scale)},/0/default.jpg`;
      requests.push(client.call('tile', 'GET', url, { binary: true }));
    }
  }
  if (withDetections) {
    const layerPath = `/api/v1/images/${slide.imageId}/layers/${slide.layer.id}`;
    // Detection tiles count levels up from 1 px: the full resolution is the level whose side covers the image.
    const fullLevel = Math.ceil(Math.log2(Math.max(info.width, info.height)));
    const level = fullLevel - Math.log2(scale);
    // The web app's overlay asks for every detection tile the view covers, as it does for the slide's own tiles.
    const detectionSide = DETECTION_TILE_SIZE * scale;
    const covered = (from: number, count: number, extent: number) => {
      const end = Math.min(extent, (from + count) * side);
      const first = Math.floor((from * side) / detectionSide);
      return Array.from({ length: Math.ceil(end / detectionSide) - first }, (_, at) => first + at);
    };
    for (const column of covered(left, BURST_COLUMNS, info.width)) {
      for (const row of covered(top, BURST_ROWS, info.height)) {
        const path = `${layerPath}/detections/tiles/${level}/${column}/${row}`;
        requests.push(client.call('detection tile', 'GET', path, { binary: true }));
      }
    }
    const query = new URLSearchParams({
      x: String(left * side),
      y: String(top * side),
      // The web app asks for the part of the view on the image: zoomed out, the view is far wider than the slide.
      width: String(Math.min(BURST_COLUMNS * side, info.width - left * side)),
      height: String(Math.min(BURST_ROWS * side, info.height - top * side)),
      scale: String(1 / scale),
    });
    requests.push(client.call('API read', 'GET', `${layerPath}/detections/viewport?${query.toString()}`));
  }
  for (const answer of await Promise.all(requests)) ok(answer);
}
