// First: it records the environment before the imaging modules load sharp (see the module).
import { restoreVipsHome } from './support/child-env.ts';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { createDatabase, type Database } from '../apps/server/src/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedServer } from '../apps/server/src/db/embedded.ts';
import { imageLayers } from '../apps/server/src/db/schema/index.ts';
import { readTiffStructure, type TiffPage } from '../apps/server/src/imaging/index.ts';
import { JPEG_QUALITY, TILE_SUFFIX } from '../apps/server/src/imaging/pyramid.ts';
import { factories } from '../apps/server/test/factories.ts';
import { freePort } from '../apps/server/test/free-port.ts';
import { startServerProcess, waitForHealthy, type ServerProcess } from '../apps/server/test/server-process.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { formatLines, gitRevision } from './support/machine.ts';
import { loadWhenQuiet } from './support/quiet.ts';
import { startTokenIssuer, type TokenIssuer } from '../apps/server/test/token-issuer.ts';
import { IIPSRV, startIipImage, startNaiveSharp, startNginx, startNodeFloor, type Running } from './tiles/servers.ts';
import { compareWithBaseline, fixed, printGoals, printTable, type Measurement, type Mode } from './tiles/report.ts';
import { runWrk } from './tiles/wrk.ts';

export const description =
  'Random 512-px IIIF tiles of a large pyramid, cold and warm, 1 and 16 connections (wrk): our /iiif/2 against sharp, nginx static files, IIPImage and the floor of Node’s own HTTP server, taking turns (--duration 10s, --rounds 2, --skip-derived, --only ours,nginx,floor,iip,naive, --save-baseline)';

const TILE = 512;
/** Unaligned requests: the tile's region moved by this many level pixels, answered at UNALIGNED_SIZE wide. */
const OFFSET = 100;
const UNALIGNED_SIZE = 400;
const CONNECTIONS = [1, 16] as const;
const SEED = 20240808;
const REPLICATE = 8;
const SOURCE = 'CMU-1-Small-Region.svs';
const AUDIENCE = 'bench';
/** Today's goals, judged on the warm runs: aligned tiles next to nginx, unaligned ones next to IIPImage per connection count. */
const GOALS = { alignedVsNginx: 0.9, unalignedVsIip: { 1: 1.5, 16: 3 }, maxMs: 1000 };

const execFileAsync = promisify(execFile);
const SHORT_NAMES: Record<string, string> = {
  ours: 'ours',
  naive: 'sharp naive',
  nginx: 'nginx static',
  floor: 'Node floor',
  iip: 'IIPImage',
};

interface Options {
  seconds: number;
  /** Times each system is measured, in turns with the others. */
  rounds: number;
  saveBaseline: boolean;
  derived: boolean;
  /** Names of the systems to measure (all when null). */
  only: string[] | null;
}

function parseDuration(text: string | undefined): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text ?? '');
  if (match == null) throw new Error(`--duration needs a time such as 10s, 500ms or 1m (got ${text})`);
  const value = Number(match[1]);
  const seconds = match[2] === 'ms' ? value / 1000 : match[2] === 'm' ? value * 60 : value;
  // wrk takes whole seconds.
  return Math.max(1, Math.round(seconds));
}

function parseArgs(args: string[]): Options {
  const options: Options = { seconds: 10, rounds: 2, saveBaseline: false, derived: true, only: null };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--skip-derived') options.derived = false;
    else if (arg === '--duration') options.seconds = parseDuration(args[++i]);
    else if (arg.startsWith('--duration=')) options.seconds = parseDuration(arg.slice('--duration='.length));
    else if (arg === '--only') options.only = (args[++i] ?? '').split(',');
    else if (arg === '--rounds') options.rounds = Math.max(1, Number.parseInt(args[++i] ?? '', 10) || 1);
    else if (arg === '--save-baseline') options.saveBaseline = true;
    else {
      throw new Error(
        `unknown option ${arg} (known: --duration 10s, --rounds 2, --skip-derived, --only ours,nginx,floor,iip,naive, --save-baseline)`,
      );
    }
  }
  return options;
}

/** Runs registered clean-ups once, latest first: at the end, on an error, or on Ctrl-C. */
class Cleanup {
  #tasks: (() => Promise<unknown>)[] = [];
  #done: Promise<void> | null = null;
  add(task: () => Promise<unknown>): void {
    this.#tasks.push(task);
  }
  run(): Promise<void> {
    this.#done ??= (async () => {
      for (const task of this.#tasks.reverse()) await task().catch((error: unknown) => console.error(error));
    })();
    return this.#done;
  }
}

async function tool(command: string, args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, { maxBuffer: 16 * 1024 * 1024 });
    return `${stdout}${stderr}`.trim();
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim() ?? '';
    throw new Error(`${command} ${args.join(' ')} failed: ${stderr || String(error)}`);
  }
}

async function toolVersions(): Promise<[string, string][]> {
  const first = async (command: string, args: string[]) =>
    (await tool(command, args).catch((error: unknown) => String(error))).split('\n')[0]!;
  const missing: string[] = [];
  for (const [command, pkg] of [
    ['wrk', 'wrk'],
    ['nginx', 'nginx-light'],
    ['lighttpd', 'lighttpd'],
    ['vips', 'libvips-tools'],
  ]) {
    if (!(await tool('sh', ['-c', `command -v ${command}`]).catch(() => ''))) missing.push(pkg!);
  }
  if (!existsSync(IIPSRV)) missing.push('iipimage-server');
  if (missing.length > 0) throw new Error(`missing tools; install with: apt-get install -y ${missing.join(' ')}`);
  return [
    ['wrk', await first('sh', ['-c', 'wrk -v 2>&1 | head -1'])],
    ['nginx', await first('nginx', ['-v'])],
    ['lighttpd', await first('lighttpd', ['-v'])],
    ['iipimage-server', `Debian ${await first('dpkg-query', ['-W', '-f=${Version}', 'iipimage-server'])}`],
    ['vips (CLI)', await first('vips', ['--version'])],
    ['sharp', `${sharp.versions.sharp ?? '?'} (libvips ${sharp.versions.vips})`],
  ];
}

/**
 * Empties the kernel's page cache: all of it when this process may (root, /proc/sys writable), else just the
 * given files, through GNU dd's nocache (posix_fadvise DONTNEED). Returns how, for the report.
 */
async function makeDropCaches(): Promise<{ drop: (files: string[]) => Promise<void>; how: string }> {
  const global = async () => {
    await tool('sync', []);
    await fs.writeFile('/proc/sys/vm/drop_caches', '3');
  };
  try {
    await global();
    return { drop: () => global(), how: 'the whole page cache dropped (sync; echo 3 > /proc/sys/vm/drop_caches)' };
  } catch {
    return {
      drop: async (files) => {
        for (const file of files) await tool('dd', [`if=${file}`, 'iflag=nocache', 'count=0']);
      },
      how: 'the page cache of the served files dropped (dd iflag=nocache)',
    };
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Tile {
  level: number;
  /** The full 512×512 grid cell, in level-0 pixels. */
  region: string;
  /** The same cell moved by OFFSET level pixels (back where it would leave the level), in level-0 pixels. */
  unaligned: string;
}

/**
 * Every whole 512×512 tile of every level (edge tiles narrower than 512 are left out, so all systems answer
 * 512×512), in a seeded random order: a prefix of the list mixes the levels in proportion to their tile counts.
 */
function tileList(levels: readonly TiffPage[]): Tile[] {
  const tiles: Tile[] = [];
  const shift = (index: number, size: number) => {
    const slack = size - (index + 1) * TILE;
    if (slack >= 1) return Math.min(OFFSET, slack);
    return index > 0 ? -OFFSET : 0;
  };
  levels.forEach((page, level) => {
    const scale = 2 ** level;
    const side = TILE * scale;
    for (let row = 0; row < Math.floor(page.height / TILE); row++) {
      for (let column = 0; column < Math.floor(page.width / TILE); column++) {
        const [x, y] = [column * side, row * side];
        const [dx, dy] = [shift(column, page.width) * scale, shift(row, page.height) * scale];
        tiles.push({ level, region: `${x},${y},${side},${side}`, unaligned: `${x + dx},${y + dy},${side},${side}` });
      }
    }
  });
  const next = random(SEED);
  for (let i = tiles.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [tiles[i], tiles[j]] = [tiles[j]!, tiles[i]!];
  }
  return tiles;
}

interface System {
  name: string;
  modes: Mode[];
  start(): Promise<Running>;
  /** Request path of a tile. */
  path(tile: Tile, mode: Mode): string;
  headers: Record<string, string>;
  /** Files whose cached pages a cold run drops when the whole page cache cannot be. */
  files: string[];
}

const iiifPath = (tile: Tile, mode: Mode) =>
  mode === 'aligned' ? `${tile.region}/${TILE},/0/default.jpg` : `${tile.unaligned}/${UNALIGNED_SIZE},/0/default.jpg`;

async function fetchJpeg(base: string, requestPath: string, headers: Record<string, string>) {
  const response = await fetch(`${base}${requestPath}`, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${base}${requestPath}: HTTP ${response.status} ${body.toString()}`);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('image/jpeg')) throw new Error(`${base}${requestPath}: content-type ${type}`);
  const meta = await sharp(body).metadata();
  if (meta.format !== 'jpeg') throw new Error(`${base}${requestPath}: not a JPEG (${meta.format})`);
  return { body, width: meta.width, height: meta.height };
}

async function rgb(jpeg: Buffer): Promise<Buffer> {
  return sharp(jpeg).removeAlpha().toColourspace('srgb').raw().toBuffer();
}

function meanAbsDiff(a: Buffer, b: Buffer): number {
  if (a.length !== b.length) return Number.NaN;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/**
 * Fetches sample tiles (one per level, and unaligned ones) from every system; each must be a JPEG of the
 * expected size. Prints how far each system's pixels are from ours (mean |Δ| per channel, 0–255).
 */
async function verify(systems: System[], tiles: Tile[]): Promise<void> {
  const samples: Tile[] = [];
  for (const tile of tiles) if (!samples.some((sample) => sample.level === tile.level)) samples.push(tile);
  const reference = new Map<string, Buffer>();
  const lines: [string, string][] = [];
  for (const system of systems) {
    const running = await system.start();
    try {
      for (const mode of system.modes) {
        const expected = mode === 'aligned' ? TILE : UNALIGNED_SIZE;
        const diffs: string[] = [];
        for (const tile of samples) {
          const jpeg = await fetchJpeg(running.base, system.path(tile, mode), system.headers);
          if (jpeg.width !== expected || jpeg.height !== expected) {
            throw new Error(`${system.name} ${mode} ${iiifPath(tile, mode)}: ${jpeg.width}×${jpeg.height}`);
          }
          const key = `${mode} ${iiifPath(tile, mode)}`;
          const pixels = await rgb(jpeg.body);
          const ours = reference.get(key);
          if (ours == null) reference.set(key, pixels);
          else diffs.push(meanAbsDiff(ours, pixels).toFixed(1));
        }
        const against = diffs.length === 0 ? 'reference' : `mean |Δ| vs ours per level: ${diffs.join(' ')}`;
        lines.push([`${system.name} ${mode}`, `${samples.length} × ${expected}×${expected} JPEG ok; ${against}`]);
      }
    } finally {
      await running.stop();
    }
  }
  console.log(
    `Verified sample tiles (levels ${samples.map((tile) => tile.level).join(', ')})\n${formatLines(lines)}\n`,
  );
}

async function uploadAndConvert(
  base: string,
  auth: string,
  caseId: string,
  file: string,
): Promise<{ imageId: string; layerId: string; seconds: number }> {
  const start = performance.now();
  const query = new URLSearchParams({ caseId, filename: path.basename(file) });
  const posted = await fetch(`${base}/api/v1/images?${query.toString()}`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/octet-stream' },
    body: await fs.readFile(file),
  });
  if (posted.status !== 201) throw new Error(`POST images: HTTP ${posted.status} ${await posted.text()}`);
  const { id } = (await posted.json()) as { id: string };
  const deadline = Date.now() + 30 * 60_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${base}/api/v1/images/${id}`, { headers: { authorization: auth } });
    const image = (await response.json()) as {
      status: string;
      processError: unknown;
      imageLayerResources: { id: string }[];
    };
    if (image.status === 'available') {
      const layerId = image.imageLayerResources[0]?.id;
      if (layerId == null) throw new Error('available image without layers');
      return { imageId: id, layerId, seconds: (performance.now() - start) / 1000 };
    }
    if (image.status === 'process_failed') throw new Error(`conversion failed: ${JSON.stringify(image.processError)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('conversion did not finish within 30 minutes');
}

/** The large slide: the real Aperio crop replicated 8×8, written as an Aperio-compatible tiled TIFF. */
async function makeDerived(dir: string): Promise<string> {
  const page0 = path.join(dir, 'page0.v');
  const target = path.join(dir, `derived-${REPLICATE}x${REPLICATE}.tif`);
  await tool('vips', ['tiffload', slidePath(SOURCE), page0]);
  const options = '[tile,tile-width=240,tile-height=240,pyramid,compression=jpeg,Q=85,bigtiff]';
  await tool('vips', ['replicate', page0, `${target}${options}`, String(REPLICATE), String(REPLICATE)]);
  await fs.rm(page0);
  return target;
}

/** Starts everything, makes the pyramid through the real server, then measures each system with wrk. */
export async function run(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const sharpVipsHome = restoreVipsHome();
  if (sharpVipsHome != null) console.log(`Loading sharp set VIPSHOME=${sharpVipsHome}; reset for the vips CLI.\n`);
  const cleanup = new Cleanup();
  const interrupted = () => {
    console.error('\nInterrupted: stopping servers and removing temp files…');
    void cleanup.run().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-bench-tiles-'));
  cleanup.add(() => fs.rm(root, { recursive: true, force: true }));
  try {
    console.log(`Tools\n${formatLines(await toolVersions())}\n`);
    const { drop: dropCaches, how: dropHow } = await makeDropCaches();

    let start = performance.now();
    const slide = options.derived ? await makeDerived(root) : slidePath(SOURCE);
    const origin = options.derived
      ? `derived, not from a scanner: ${SOURCE} replicated ${REPLICATE}×${REPLICATE} with vips replicate, Aperio-compatible tiled TIFF`
      : `real file, shared test data (${SOURCE})`;
    if (options.derived) console.log(`Derived slide made in ${((performance.now() - start) / 1000).toFixed(1)} s`);

    const postgres: EmbeddedServer = await startEmbeddedPostgres({
      dataDir: path.join(root, 'pg'),
      port: await freePort(),
      database: 'pathology_bench',
    });
    cleanup.add(() => postgres.stop());
    const issuer: TokenIssuer = await startTokenIssuer();
    cleanup.add(() => issuer.close());
    const dataDir = path.join(root, 'data');
    const blobsDir = path.join(root, 'blobs');
    const port = await freePort();
    const serverEnv = (role: string) => ({
      env: {
        DATABASE_URL: postgres.url,
        DATA_DIR: dataDir,
        STORAGE_URL: blobsDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        OIDC_ISSUER: issuer.issuer,
        OIDC_CLIENT_ID: AUDIENCE,
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'false',
        // One HTTP process per core, as nginx gets one worker and IIPImage one FastCGI process per core.
        HTTP_PROCESSES: String(os.availableParallelism()),
      },
      args: ['--role', role],
    });
    const base = `http://127.0.0.1:${port}`;
    let current: ServerProcess | null = null;
    cleanup.add(async () => void (await current?.stop()));
    const startOurs = async (role: string): Promise<ServerProcess> => {
      const { env, args: roleArgs } = serverEnv(role);
      const server = startServerProcess(env, roleArgs);
      current = server;
      await waitForHealthy(base, server);
      return server;
    };

    const database: Database = createDatabase(postgres.url, { max: 2 });
    cleanup.add(() => database.close());
    const server = await startOurs('all');
    const make = factories(database.db);
    const group = await make.organization();
    const caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'BENCH-TILES' });
    await make.join(await make.account({ subject: 'bench-viewer' }), group, 'member');
    const auth = `Bearer ${await issuer.token('bench-viewer', AUDIENCE)}`;
    const converted = await uploadAndConvert(base, auth, caseId, slide);
    await server.stop();
    current = null;
    const [layer] = await database.db
      .select({ key: imageLayers.pyramidKey })
      .from(imageLayers)
      .where(eq(imageLayers.id, converted.layerId));
    const pyramid = path.join(blobsDir, layer!.key);
    if (!existsSync(pyramid)) throw new Error(`pyramid not found at ${pyramid}`);
    const handle = await fs.open(pyramid, 'r');
    const levels = (await readTiffStructure(handle).finally(() => handle.close())).pages.filter(
      (page) => page.tileWidth != null,
    );
    const tiles = tileList(levels);
    const perLevel = levels.map((page, level) => {
      const count = tiles.filter((tile) => tile.level === level).length;
      return `L${level} ${page.width}×${page.height} ${count}`;
    });
    console.log(
      `Slide: ${path.basename(slide)} — ${origin}\n` +
        `Uploaded (POST images) and converted by the real server (--role all) in ${converted.seconds.toFixed(1)} s; ` +
        `pyramid ${((await fs.stat(pyramid)).size / 1e6).toFixed(0)} MB, ${levels.length} levels, tile ${levels[0]?.tileWidth}\n` +
        `Tile list: ${tiles.length} whole 512×512 tiles (seed ${SEED}), per level: ${perLevel.join(', ')}\n`,
    );

    // (b) the same tiles as static IIIF files: dzsave of the same slide with the pyramid's own tile settings writes
    // byte for byte the JPEGs our server sends; (c) IIPImage reads the pyramid through a link in its folder.
    start = performance.now();
    const dz = path.join(root, 'dz');
    await tool('vips', [
      'dzsave',
      `${slide}[rgb]`,
      dz,
      '--layout',
      'iiif',
      '--tile-size',
      String(TILE),
      '--suffix',
      TILE_SUFFIX,
    ]);
    const dzFiles = await listFiles(dz);
    console.log(
      `vips dzsave --layout iiif: ${dzFiles.length} files in ${((performance.now() - start) / 1000).toFixed(1)} s`,
    );
    for (const tile of tiles) {
      const file = path.join(dz, iiifPath(tile, 'aligned'));
      if (!existsSync(file)) throw new Error(`dzsave wrote no ${file}`);
    }
    const iipRoot = path.join(root, 'iip');
    await fs.mkdir(iipRoot);
    await fs.symlink(pyramid, path.join(iipRoot, 'pyramid.tif'));

    const allSystems: System[] = [
      {
        name: 'ours',
        modes: ['aligned', 'unaligned'],
        // The measured process serves only (--role api); a fresh one for every cold run.
        start: async () => {
          const started = await startOurs('api');
          return {
            base,
            stop: async () => {
              await started.stop();
              current = null;
            },
          };
        },
        path: (tile, mode) => `/iiif/2/${converted.layerId}/${iiifPath(tile, mode)}`,
        headers: { Authorization: auth },
        files: [pyramid],
      },
      {
        name: 'sharp naive',
        modes: ['aligned', 'unaligned'],
        start: () =>
          startNaiveSharp(
            pyramid,
            levels.map((page) => page.width),
            process.env,
          ),
        path: (tile, mode) => `/${iiifPath(tile, mode)}`,
        headers: {},
        files: [pyramid],
      },
      {
        name: 'nginx static',
        modes: ['aligned'],
        start: () => startNginx(path.join(root, 'nginx'), dz),
        path: (tile) => `/${iiifPath(tile, 'aligned')}`,
        headers: {},
        files: dzFiles,
      },
      {
        name: 'Node floor',
        modes: ['aligned'],
        start: () => startNodeFloor(dz, process.env),
        path: (tile) => `/${iiifPath(tile, 'aligned')}`,
        headers: {},
        files: [],
      },
      {
        name: 'IIPImage',
        modes: ['aligned', 'unaligned'],
        start: () => startIipImage(path.join(root, 'lighttpd'), iipRoot),
        path: (tile, mode) => `/fcgi-bin/iipsrv.fcgi?IIIF=pyramid.tif/${iiifPath(tile, mode)}`,
        headers: {},
        files: [pyramid],
      },
    ];
    const systems = allSystems.filter(
      (system) => options.only == null || options.only.some((name) => SHORT_NAMES[name] === system.name),
    );
    await verify(systems, tiles);

    const measurements: Measurement[] = [];
    const listDir = path.join(root, 'lists');
    await fs.mkdir(listDir);
    const lists = new Map<string, { file: string; paths: string[] }>();
    for (const system of systems) {
      for (const mode of system.modes) {
        const paths = tiles.map((tile) => system.path(tile, mode));
        const file = path.join(listDir, `${system.name.replace(/\W+/g, '-')}-${mode}.txt`);
        await fs.writeFile(file, `${paths.join('\n')}\n`);
        lists.set(`${system.name} ${mode}`, { file, paths });
      }
    }
    // The systems take turns (ours, nginx, …, ours, nginx, …) so that a change of load hits each alike.
    for (const mode of ['aligned', 'unaligned'] as const) {
      for (const connections of CONNECTIONS) {
        for (let round = 1; round <= options.rounds; round++) {
          for (const system of systems.filter((candidate) => candidate.modes.includes(mode))) {
            const list = lists.get(`${system.name} ${mode}`)!;
            const running = await system.start();
            cleanup.add(() => running.stop());
            try {
              await dropCaches(system.files);
              const load = await loadWhenQuiet();
              const common = { base: running.base, connections, headers: system.headers, dir: root };
              const cold = await runWrk({
                ...common,
                pathsFile: list.file,
                seconds: options.seconds,
                limit: list.paths.length,
              });
              // The warm pass asks again for the tiles the cold pass got through, over the whole duration.
              const warmFile = `${list.file}.warm`;
              await fs.writeFile(warmFile, `${list.paths.slice(0, Math.max(1, cold.requests)).join('\n')}\n`);
              const warm = await runWrk({ ...common, pathsFile: warmFile, seconds: options.seconds, limit: null });
              for (const [phase, result] of [
                ['cold', cold],
                ['warm', warm],
              ] as const) {
                measurements.push({
                  system: system.name,
                  mode,
                  connections,
                  phase,
                  round,
                  load,
                  result,
                  listed: list.paths.length,
                });
                console.log(
                  `${system.name} ${mode} ${connections} conn round ${round} ${phase} (load ${load.toFixed(2)}): ` +
                    `${result.requests} tiles in ${fixed(result.seconds)} s, ${fixed(result.perSecond, 0)}/s; ` +
                    `wrk latency 50% ${fixed(result.p50)} 75% ${fixed(result.p75)} 90% ${fixed(result.p90)} ` +
                    `99% ${fixed(result.p99)} max ${fixed(result.max)} ms; ` +
                    `${(result.bytes / Math.max(1, result.requests) / 1024).toFixed(0)} KiB/answer; errors ${result.errors}`,
                );
              }
            } finally {
              await running.stop();
            }
          }
        }
      }
    }

    const load = os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
    console.log(
      `\nResults: wrk, 1 thread, --timeout 30s; cold = fresh server process and ${dropHow}, then one pass over ` +
        `the ${tiles.length} never-requested tiles (capped at ${options.seconds} s); warm = those tiles again for ` +
        `${options.seconds} s, ${options.rounds} round${options.rounds === 1 ? '' : 's'} in turns. aligned = ${TILE}×${TILE} grid tiles of all levels; unaligned = the same cells moved by ` +
        `${OFFSET} level pixels, answered ${UNALIGNED_SIZE} wide. Load average after measuring: ${load}.\n`,
    );
    printTable(measurements);
    printGoals(measurements, CONNECTIONS, GOALS);
    compareWithBaseline(measurements, { save: options.saveBaseline, revision: gitRevision() });
    console.log(
      `\nours = apps/server main.ts --role api with HTTP_PROCESSES ${os.availableParallelism()} and the default ` +
        'TILE_CACHE_MB, /iiif/2 with a bearer token (aligned tiles passed through); ' +
        'sharp naive = bench/tiles/naive-sharp-server.ts, a Node HTTP server that opens the pyramid page with ' +
        `sharp per request, extracts, (resizes,) encodes Q${JPEG_QUALITY} 4:4:4 — same HTTP client and concurrency as the others; ` +
        `nginx static = vips dzsave --layout iiif of the same slide with the pyramid's tile settings (${TILE_SUFFIX}), ` +
        `${os.availableParallelism()} workers, sendfile; IIPImage = ${IIPSRV} (max-procs ${os.availableParallelism()}, ` +
        `JPEG_QUALITY ${JPEG_QUALITY}, ` +
        'MAX_IMAGE_CACHE_SIZE 10 MB default) behind lighttpd mod_fastcgi, reading the same pyramid file; ' +
        `Node floor = bench/tiles/node-floor-server.ts, nginx's tile files held in memory and answered by Node's own ` +
        `HTTP server in ${os.availableParallelism()} processes, nothing else done per request.`,
    );
  } finally {
    await cleanup.run();
    process.removeListener('SIGINT', interrupted);
    process.removeListener('SIGTERM', interrupted);
  }
}
