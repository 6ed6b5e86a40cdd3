import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../apps/server/src/auth/password.ts';
import { createDatabase } from '../apps/server/src/db/client.ts';
import { factories } from '../apps/server/test/factories.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { signIn } from '../scale/sign-in.ts';
import { startTopology, waitFor, type Topology } from '../scale/topology.ts';
import { formatTable } from './support/table.ts';
import { runWrk } from './tiles/wrk.ts';

export const description =
  'Scaling through nginx on Debian PostgreSQL + S3: IIIF tiles/s and search p50 (16 connections) with 1 and 2 API processes and HTTP_PROCESSES=2, slides converted per minute with 1 and 2 workers; ratios (--seconds 10, --slides 6)';

const EMAIL = 'bench@example.test';
const PASSWORD = 'bench scale password';
const CONNECTIONS = 16;

interface Setup {
  name: string;
  apis: number;
  workers: number;
  httpProcesses: number;
}

const SETUPS: Setup[] = [
  { name: '1 API, 1 worker', apis: 1, workers: 1, httpProcesses: 1 },
  { name: '2 APIs, 2 workers', apis: 2, workers: 2, httpProcesses: 1 },
  { name: '1 API × HTTP_PROCESSES=2, 1 worker', apis: 1, workers: 1, httpProcesses: 2 },
];

interface Figures {
  tilesPerSecond: number;
  searchP50Ms: number;
  slidesPerMinute: number;
}

function parseArgs(args: string[]): { seconds: number; slides: number } {
  const options = { seconds: 10, slides: 6 };
  for (let i = 0; i < args.length; i += 2) {
    const value = Number(args[i + 1]);
    if (args[i] === '--seconds') options.seconds = value;
    else if (args[i] === '--slides') options.slides = value;
    else throw new Error(`unknown option ${args[i]} (known: --seconds N, --slides N)`);
  }
  return options;
}

/** An account in a group with `count` cases, signed in through nginx. */
async function prepare(topology: Topology, count: number): Promise<{ token: string; caseIds: string[] }> {
  const database = createDatabase(topology.databaseUrl, { max: 2 });
  try {
    const make = factories(database.db);
    const group = await make.organization();
    const person = await make.account({ email: EMAIL });
    await database.pool.query('UPDATE accounts SET password_hash = $2 WHERE id = $1', [
      person.accountId,
      await hashPassword(PASSWORD),
    ]);
    await make.join(person, group, 'member');
    const caseIds: string[] = [];
    for (let i = 0; i < count; i++) caseIds.push(await make.case({ ownerOrganizationId: group, caseNumber: `B-${i}` }));
    return { token: (await signIn(topology.url, EMAIL, PASSWORD)).token, caseIds };
  } finally {
    await database.close();
  }
}

/** Uploads the same small slide once per case at once and times until every one is converted. */
async function convert(
  topology: Topology,
  token: string,
  caseIds: string[],
): Promise<{ perMinute: number; layerId: string }> {
  const slide = await fs.readFile(slidePath('CMU-1-Small-Region.svs'));
  const auth = { authorization: `Bearer ${token}` };
  const started = performance.now();
  const ids = await Promise.all(
    caseIds.map(async (caseId) => {
      const query = new URLSearchParams({ caseId, filename: 'bench.svs' });
      const response = await fetch(`${topology.url}/api/v1/images?${query.toString()}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/octet-stream' },
        body: slide,
      });
      if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { id: string }).id;
    }),
  );
  const status = async (id: string) =>
    ((await (await fetch(`${topology.url}/api/v1/images/${id}`, { headers: auth })).json()) as { status: string })
      .status;
  await waitFor(
    async () => (await Promise.all(ids.map(status))).every((s) => s === 'available'),
    600_000,
    'conversions did not finish',
  );
  const minutes = (performance.now() - started) / 60_000;
  const image = (await (await fetch(`${topology.url}/api/v1/images/${ids[0]}`, { headers: auth })).json()) as {
    imageLayerResources: { id: string; width: number; height: number }[];
  };
  return { perMinute: ids.length / minutes, layerId: image.imageLayerResources[0]!.id };
}

/** Every 512-px tile of the layer at every scale, as IIIF paths. */
async function tilePaths(topology: Topology, token: string, layerId: string): Promise<string[]> {
  const info = (await (
    await fetch(`${topology.url}/iiif/2/${layerId}/info.json`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { width: number; height: number; tiles: { width: number; scaleFactors: number[] }[] };
  const { width: tile, scaleFactors } = info.tiles[0]!;
  const paths: string[] = [];
  for (const scale of scaleFactors) {
    const span = tile * scale;
    for (let y = 0; y < info.height; y += span) {
      for (let x = 0; x < info.width; x += span) {
        const w = Math.min(span, info.width - x);
        const h = Math.min(span, info.height - y);
        paths.push(`/iiif/2/${layerId}/${x},${y},${w},${h}/${Math.ceil(w / scale)},/0/default.jpg`);
      }
    }
  }
  return paths;
}

/** 16 clients asking the case search back to back for `seconds`; the median answer time in ms. */
async function searchP50(topology: Topology, token: string, seconds: number): Promise<number> {
  const latencies: number[] = [];
  const deadline = Date.now() + seconds * 1000;
  const client = async () => {
    while (Date.now() < deadline) {
      const started = performance.now();
      const response = await fetch(`${topology.url}/api/v1/cases/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ limit: 50 }),
      });
      await response.arrayBuffer();
      if (response.status === 200) latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  latencies.sort((a, b) => a - b);
  return latencies[Math.floor(latencies.length / 2)] ?? Number.NaN;
}

async function measure(setup: Setup, options: { seconds: number; slides: number }): Promise<Figures> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-bench-scale-'));
  await fs.chmod(root, 0o755);
  const topology = await startTopology(root, {
    apis: setup.apis,
    workers: setup.workers,
    env: { HTTP_PROCESSES: String(setup.httpProcesses), WORKER_CONCURRENCY: '1' },
  });
  try {
    const { token, caseIds } = await prepare(topology, options.slides);
    const { perMinute, layerId } = await convert(topology, token, caseIds);
    const listFile = path.join(root, 'tiles.txt');
    await fs.writeFile(listFile, `${(await tilePaths(topology, token, layerId)).join('\n')}\n`);
    const tiles = await runWrk({
      base: topology.url,
      pathsFile: listFile,
      connections: CONNECTIONS,
      seconds: options.seconds,
      headers: { authorization: `Bearer ${token}` },
      limit: null,
      dir: root,
    });
    if (tiles.errors > 0) console.warn(`${setup.name}: ${tiles.errors} tile requests failed`);
    return {
      tilesPerSecond: tiles.perSecond,
      searchP50Ms: await searchP50(topology, token, options.seconds),
      slidesPerMinute: perMinute,
    };
  } finally {
    await topology.stop();
  }
}

export async function run(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const cores = os.availableParallelism();
  console.log(`${cores} cores; every process below (PostgreSQL, S3, nginx, APIs, workers, wrk) shares them.\n`);
  const results: Figures[] = [];
  for (const setup of SETUPS) {
    console.log(`Measuring ${setup.name}…`);
    results.push(await measure(setup, options));
  }
  console.log(
    formatTable(
      [
        { title: 'Setup' },
        { title: 'Tiles/s (16 conn.)', align: 'right' },
        { title: 'Search p50 ms (16 conn.)', align: 'right' },
        { title: 'Slides converted/min', align: 'right' },
      ],
      SETUPS.map((setup, i) => [
        setup.name,
        results[i]!.tilesPerSecond.toFixed(0),
        results[i]!.searchP50Ms.toFixed(1),
        results[i]!.slidesPerMinute.toFixed(2),
      ]),
    ),
  );
  const [one, two, forked] = results as [Figures, Figures, Figures];
  console.log(`\nRatios, 2 processes against 1:`);
  console.log(
    `  tiles/s      2 APIs ${(two.tilesPerSecond / one.tilesPerSecond).toFixed(2)}×, HTTP_PROCESSES=2 ${(forked.tilesPerSecond / one.tilesPerSecond).toFixed(2)}×`,
  );
  console.log(
    `  search p50   2 APIs ${(two.searchP50Ms / one.searchP50Ms).toFixed(2)}× the time, HTTP_PROCESSES=2 ${(forked.searchP50Ms / one.searchP50Ms).toFixed(2)}×`,
  );
  console.log(`  conversions  2 workers ${(two.slidesPerMinute / one.slidesPerMinute).toFixed(2)}×`);
  console.log(
    `\nOn ${cores} cores the second process can at best double what one process does when that one is CPU-bound ` +
      `and nothing else runs; here PostgreSQL, nginx, the S3 server and the load generator take their share of the ` +
      `same cores, so expect well under 2× (a conversion's vips already uses several cores, so 2 workers gain least). ` +
      `On separate machines each added process brings its own cores.`,
  );
}
