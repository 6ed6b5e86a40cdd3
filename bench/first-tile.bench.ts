import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { Image } from '@pathology/contract';
import sharp from 'sharp';
import { createDatabase, type Database } from '../apps/server/src/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedServer } from '../apps/server/src/db/embedded.ts';
import { DEFAULT_CONVERSION_NICENESS } from '../apps/server/src/config.ts';
import { TILE_SUFFIX } from '../apps/server/src/imaging/pyramid.ts';
import { factories } from '../apps/server/test/factories.ts';
import { freePort } from '../apps/server/test/free-port.ts';
import { startServerProcess, waitForHealthy, type ServerProcess } from '../apps/server/test/server-process.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { deriveLargeSlide, deriveNdpiReplica, SMALL } from './support/derived-slides.ts';
import { summarize } from './support/stats.ts';
import { formatTable } from './support/table.ts';
import { loadWhenQuiet, QUIET_LOAD } from './support/quiet.ts';
import { startTokenIssuer, type TokenIssuer } from '../apps/server/test/token-issuer.ts';

export const description =
  'Upload → first correct 512-px tile served from the original (lowest level and level 0), tile latency at 1 and 8 connections while the pyramid builds, time to the finished pyramid beside converting alone (interleaved), next to vips dzsave; the small SVS, a 1.1 GP Aperio replica and its NDPI replica (--runs=N, --small, --replicate=WxH, --formats=svs,ndpi; --pyramid-only: upload → finished pyramid alone, no tiles read, which runs on commits from before viewing from the original too)';

const exec = promisify(execFile);
const AUDIENCE = 'bench';
/** 2220 × 2967 replicated 14 × 12: the issue's 31,080 × 35,604 px (1.1 GP) Aperio-style slide. */
const DEFAULT_REPLICATE: [number, number] = [14, 12];
const LATENCY_SAMPLES = 40;

interface Options {
  runs: number;
  small: boolean;
  replicate: [number, number];
  pyramidOnly: boolean;
  formats: Set<string>;
}

function parseArgs(args: string[]): Options {
  const options: Options = {
    runs: 5,
    small: false,
    replicate: DEFAULT_REPLICATE,
    pyramidOnly: false,
    formats: new Set(['svs', 'ndpi']),
  };
  for (const arg of args) {
    if (arg === '--small') options.small = true;
    else if (arg === '--pyramid-only') options.pyramidOnly = true;
    else if (arg.startsWith('--runs=')) options.runs = Number(arg.slice('--runs='.length));
    else if (arg.startsWith('--formats=')) options.formats = new Set(arg.slice('--formats='.length).split(','));
    else if (arg.startsWith('--replicate=')) {
      const [across, down] = arg.slice('--replicate='.length).split('x').map(Number);
      options.replicate = [across!, down!];
    } else
      throw new Error(
        `unknown option ${arg} (known: --runs=N, --small, --replicate=WxH, --formats=svs,ndpi, --pyramid-only)`,
      );
  }
  if (!(options.runs >= 1)) throw new Error('--runs must be at least 1');
  return options;
}

interface Run {
  lowest: number;
  level0: number;
  available: number;
  latency1: number[];
  latency8: number[];
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

/** How much longer the pyramid took while tiles were read, median against median. */
function overhead(viewed: number[], alone: number[]): string {
  const ratio = summarize(viewed).median / summarize(alone).median;
  return `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)} %`;
}

/** One upload of `file` through POST images, timed from the answer (the last byte acknowledged). */
async function oneRun(
  base: string,
  auth: string,
  caseId: string,
  file: string,
  run: number,
  pyramidOnly: boolean,
): Promise<Run> {
  const { size } = await fs.stat(file);
  const query = new URLSearchParams({
    caseId,
    filename: `run-${run}${pyramidOnly ? '-alone' : ''}-${path.basename(file)}`,
  });
  // Streamed (the large slide is ~0.9 GB); fetch needs duplex 'half' for a stream body.
  const init: RequestInit & { duplex: 'half' } = {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/octet-stream', 'content-length': String(size) },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
    duplex: 'half',
  };
  const response = await fetch(`${base}/api/v1/images?${query.toString()}`, init);
  if (response.status !== 201) throw new Error(`POST images: HTTP ${response.status} ${await response.text()}`);
  const acknowledged = performance.now();
  const { id } = (await response.json()) as { id: string };
  const get = (url: string) => fetch(`${base}${url}`, { headers: { authorization: auth } });
  const image = async () => (await (await get(`/api/v1/images/${id}`)).json()) as Image;

  const finished = async (): Promise<number> => {
    let shown: Image;
    while ((shown = await image()).status !== 'available') {
      if (shown.status === 'process_failed') throw new Error(`conversion failed: ${shown.processError?.message}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return performance.now() - acknowledged;
  };
  if (pyramidOnly) return { lowest: NaN, level0: NaN, available: await finished(), latency1: [], latency8: [] };

  let shown = await image();
  while (shown.tileSource == null) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    shown = await image();
  }
  const infoUrl = shown.tileSource.url;
  const service = infoUrl.replace(/\/info\.json$/, '');
  const info = (await (await get(infoUrl)).json()) as {
    width: number;
    height: number;
    sizes: { width: number; height: number }[];
  };
  const top = info.sizes[0]!;
  /** A tile, checked to be a JPEG of the asked size. */
  const tile = async (region: string, width: number, height: number) => {
    const answer = await get(`${service}/${region}/${width},${height}/0/default.jpg`);
    if (answer.status !== 200) throw new Error(`tile ${region}: HTTP ${answer.status}`);
    const meta = await sharp(Buffer.from(await answer.arrayBuffer())).metadata();
    if (meta.width !== width || meta.height !== height) throw new Error(`tile ${region}: ${meta.width}×${meta.height}`);
  };
  await tile(`0,0,${info.width},${info.height}`, top.width, top.height);
  const lowest = performance.now() - acknowledged;
  await tile('0,0,512,512', 512, 512);
  const level0 = performance.now() - acknowledged;

  // Tiles all over level 0 while the conversion runs beside: what a pathologist panning the slide asks for.
  const columns = Math.floor(info.width / 512);
  const rows = Math.floor(info.height / 512);
  let next = 0;
  const randomTile = async (): Promise<number> => {
    const index = (next++ * 7919) % (columns * rows);
    const start = performance.now();
    await tile(`${(index % columns) * 512},${Math.floor(index / columns) * 512},512,512`, 512, 512);
    return performance.now() - start;
  };
  const latency1: number[] = [];
  const latency8: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES && (await image()).status !== 'available'; i++) latency1.push(await randomTile());
  for (let i = 0; i < LATENCY_SAMPLES / 8 && (await image()).status !== 'available'; i++) {
    latency8.push(...(await Promise.all(Array.from({ length: 8 }, randomTile))));
  }
  return { lowest, level0, available: await finished(), latency1, latency8 };
}

/** The convert-first anchor: vips dzsave of the same slide with the pipeline's tiles. */
async function dzsaveSeconds(file: string, dir: string): Promise<number> {
  const start = performance.now();
  await exec(
    'vips',
    ['dzsave', file, path.join(dir, 'anchor'), '--layout', 'google', '--tile-size', '512', '--suffix', TILE_SUFFIX],
    {
      // sharp's VIPSHOME would hide the system vips' OpenSlide module.
      env: Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'VIPSHOME')),
    },
  );
  const elapsed = performance.now() - start;
  await fs.rm(path.join(dir, 'anchor'), { recursive: true, force: true });
  return elapsed;
}

export async function run(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-first-tile-'));
  let postgres: EmbeddedServer | undefined;
  let issuer: TokenIssuer | undefined;
  let server: ServerProcess | undefined;
  let database: Database | undefined;
  try {
    const slides: string[] = [];
    if (options.formats.has('svs')) slides.push(slidePath(SMALL));
    if (!options.small) {
      const large = await deriveLargeSlide(root, options.replicate);
      if (options.formats.has('svs')) slides.push(large);
      if (options.formats.has('ndpi')) slides.push(await deriveNdpiReplica(root, large));
    }
    postgres = await startEmbeddedPostgres({
      dataDir: path.join(root, 'pg'),
      port: await freePort(),
      database: 'bench',
    });
    issuer = await startTokenIssuer();
    const port = await freePort();
    // api and worker in one process, as `npm start` runs them: the conversion competes with the tiles for the cores.
    server = startServerProcess({
      DATABASE_URL: postgres.url,
      DATA_DIR: path.join(root, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      OIDC_ISSUER: issuer.issuer,
      OIDC_CLIENT_ID: AUDIENCE,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      // The test harness runs conversions at the server's priority; the bench measures the shipped default.
      CONVERSION_NICENESS: String(DEFAULT_CONVERSION_NICENESS),
    });
    const base = `http://127.0.0.1:${port}`;
    await waitForHealthy(base, server);
    database = createDatabase(postgres.url, { max: 2 });
    const make = factories(database.db);
    const group = await make.organization();
    const caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'BENCH-FIRST-TILE' });
    await make.join(await make.account({ subject: 'bench-viewer' }), group, 'member');
    const auth = `Bearer ${await issuer.token('bench-viewer', AUDIENCE)}`;

    const rows: string[][] = [];
    for (const slide of slides) {
      const runs: Run[] = [];
      const alone: number[] = [];
      const loads: number[] = [];
      for (let i = 0; i < options.runs; i++) {
        loads.push(await loadWhenQuiet());
        runs.push(await oneRun(base, auth, caseId, slide, i, options.pyramidOnly));
        // Interleaved: the same upload with no tile read, so the viewing's cost on the conversion shows.
        if (!options.pyramidOnly) alone.push((await oneRun(base, auth, caseId, slide, i, true)).available);
      }
      const anchor = await dzsaveSeconds(slide, root);
      const figure = (values: number[]) => {
        if (options.pyramidOnly && values.some(Number.isNaN)) return 'not read (--pyramid-only)';
        if (values.length === 0) return 'n/a (pyramid done first)';
        const s = summarize(values);
        return `${seconds(s.median)} / ${seconds(s.p95)}`;
      };
      const ms = (values: number[]) => {
        if (options.pyramidOnly) return 'not read';
        if (values.length === 0) return 'n/a';
        const s = summarize(values);
        return `${s.median.toFixed(0)} / ${s.p95.toFixed(0)}`;
      };
      rows.push([
        path.basename(slide),
        figure(runs.map((r) => r.lowest)),
        figure(runs.map((r) => r.level0)),
        ms(runs.flatMap((r) => r.latency1)),
        ms(runs.flatMap((r) => r.latency8)),
        figure(runs.map((r) => r.available)),
        options.pyramidOnly ? 'not run' : figure(alone),
        options.pyramidOnly
          ? ''
          : overhead(
              runs.map((r) => r.available),
              alone,
            ),
        seconds(anchor),
        loads.map((load) => load.toFixed(1)).join(' '),
      ]);
    }
    console.log(
      formatTable(
        [
          { title: 'slide' },
          { title: 'first lowest-level tile s (median / p95)', align: 'right' },
          { title: 'first level-0 tile s', align: 'right' },
          { title: 'tile ms at 1 conn (median / p95)', align: 'right' },
          { title: 'tile ms at 8 conn', align: 'right' },
          { title: 'to finished pyramid s', align: 'right' },
          { title: 'converting alone s', align: 'right' },
          { title: 'overhead (medians)', align: 'right' },
          { title: 'vips dzsave s (convert-first anchor)', align: 'right' },
          { title: 'load before each run' },
        ],
        rows,
      ),
    );
    console.log(
      `\nGoals: first tile < 3 s median, < 5 s p95 on the 1.1 GP slide; tile p95 < 100 ms at 1 connection, < 250 ms at 8; time to the finished pyramid within 10 % of converting alone (the same upload with no tile read, run after each) and of the main branch's (run this benchmark there for the comparison); figures taken above load ${QUIET_LOAD} are not judged. ${options.runs} run(s) per slide; conversions at niceness ${DEFAULT_CONVERSION_NICENESS} (CONVERSION_NICENESS).`,
    );
  } finally {
    await server?.stop();
    await database?.close();
    await postgres?.stop();
    await issuer?.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}
