import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { TUS_CHUNK_SIZE } from '../apps/web/src/features/uploads/tus-settings.ts';
import { createDatabase, type Database } from '../apps/server/src/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedServer } from '../apps/server/src/db/embedded.ts';
import { images } from '../apps/server/src/db/schema/index.ts';
import { factories } from '../apps/server/test/factories.ts';
import { freePort } from '../apps/server/test/free-port.ts';
import { startS3Server } from '../apps/server/test/s3-server.ts';
import { startServerProcess, waitForHealthy, type ServerProcess } from '../apps/server/test/server-process.ts';
import { uploadFromBrowser } from './support/browser-upload.ts';
import { sweepChunkSizes } from './support/browser-sweep.ts';
import { formatLines } from './support/machine.ts';
import { formatTable } from './support/table.ts';
import { startTokenIssuer, type TokenIssuer } from '../apps/server/test/token-issuer.ts';
import { bulkNames, uploadPost, uploadTus, writeSlide, type UploadTarget } from './support/upload-client.ts';
import { CpuMeter, startNullSink } from './support/upload-probes.ts';

export const description =
  'Streams a multi-GB .tif into the real server (POST images, tus with the web app chunk size; --s3, --browser for ' +
  'headless Chromium through the web app, --bulk-mb N, --sweep-mib 8,32,… for tus-js-client in Chromium per chunk ' +
  'size): MB/s as a share of cp + sync, peak server RSS';

/** The issue's goals (issue 30): shares of cp + sync, and the api process's peak RSS while it receives a slide. */
const GOALS = { post: 0.9, tus: 0.8, bulk: 0.8 };
const GOAL_RSS_MB = 300;
const MB = 1e6;
const MiB = 1024 * 1024;
const SAMPLE_MS = 50;
const AUDIENCE = 'bench';
const BULK_FILES = 10;

interface Options {
  sizeBytes: number;
  tus: boolean;
  chunkBytes: number;
  s3: boolean;
  browser: boolean;
  bulkBytes: number;
  /** Chunk sizes for the browser sweep, none when not asked for. */
  sweepBytes: number[];
}

function parseArgs(args: string[]): Options {
  const options = { sizeGb: 2, tus: true, chunkMib: TUS_CHUNK_SIZE / MiB, s3: false, browser: false, bulkMb: 200 };
  let sweepMib: number[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const [arg = '', inline] = args[i]!.split('=', 2);
    const value = () => Number(inline ?? args[++i]);
    if (arg === '--skip-tus') options.tus = false;
    else if (arg === '--s3') options.s3 = true;
    else if (arg === '--browser') options.browser = true;
    else if (arg === '--size-gb') options.sizeGb = value();
    else if (arg === '--chunk-mib') options.chunkMib = value();
    else if (arg === '--bulk-mb') options.bulkMb = value();
    else if (arg === '--sweep-mib') sweepMib = (inline ?? args[++i] ?? '').split(',').map(Number);
    else
      throw new Error(
        `unknown option ${arg} (known: --size-gb N, --chunk-mib N, --skip-tus, --s3, --browser, --bulk-mb N, ` +
          '--sweep-mib N,N,…)',
      );
  }
  if (sweepMib.some((mib) => !(mib > 0))) throw new Error('--sweep-mib takes positive numbers: 8,32,64,256');
  for (const [name, value] of Object.entries({
    sizeGb: options.sizeGb,
    chunkMib: options.chunkMib,
    bulkMb: options.bulkMb,
  })) {
    if (!(value > 0)) throw new Error(`${name} must be a positive number`);
  }
  return {
    sizeBytes: Math.round(options.sizeGb * 1024 ** 3),
    tus: options.tus,
    chunkBytes: Math.round(options.chunkMib * MiB),
    s3: options.s3,
    browser: options.browser,
    bulkBytes: Math.round(options.bulkMb * MB),
    sweepBytes: sweepMib.map((mib) => Math.round(mib * MiB)),
  };
}

/** Samples VmRSS of a process and keeps the peak; VmHWM is its lifetime peak, start-up included. */
class RssSampler {
  peakKb = 0;
  #timer: NodeJS.Timeout | undefined;
  constructor(private readonly pid: number) {}

  async read(): Promise<{ rssKb: number; hwmKb: number }> {
    const status = await fs.readFile(`/proc/${this.pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
  }

  start(): void {
    this.peakKb = 0;
    this.#timer = setInterval(() => {
      this.read()
        .then(({ rssKb }) => (this.peakKb = Math.max(this.peakKb, rssKb)))
        .catch(() => {});
    }, SAMPLE_MS);
  }

  async stop(): Promise<number> {
    clearInterval(this.#timer);
    this.peakKb = Math.max(this.peakKb, (await this.read()).rssKb);
    return this.peakKb;
  }
}

async function exec(command: string, args: string[]): Promise<void> {
  const child = spawn(command, args, { stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} exited with ${code}`);
}

/** Seconds to copy `files` into `folder` and sync them: the disk's speed the uploads are measured against. */
async function copyAndSync(files: string[], folder: string): Promise<number> {
  await fs.mkdir(folder, { recursive: true });
  const start = performance.now();
  await exec('cp', [...files, folder]);
  await exec('sync', ['-f', folder]);
  const seconds = (performance.now() - start) / 1000;
  await fs.rm(folder, { recursive: true });
  return seconds;
}

interface Row {
  name: string;
  bytes: number;
  seconds: number;
  /** Seconds of cp + sync of the same bytes, and the share the row must reach. */
  baseline?: { seconds: number; goal: number };
  rssBeforeMb?: number;
  peakRssMb?: number;
  /** CPU seconds of the receiving process, of the bench's client, and of the whole machine (other processes too). */
  cpu?: { server: number; client: number; machineBusy: number };
}

const mb = (kb: number) => kb / 1024;

function printResults(rows: Row[], hwmKb: number, chunkBytes: number): void {
  const table = rows.map((row) => {
    const share = row.baseline ? row.baseline.seconds / row.seconds : undefined;
    return [
      row.name,
      (row.bytes / MB).toFixed(0),
      row.seconds.toFixed(2),
      (row.bytes / MB / row.seconds).toFixed(0),
      share == null
        ? ''
        : `${share.toFixed(2)}× (goal ${row.baseline!.goal}×) ${share >= row.baseline!.goal ? 'PASS' : 'FAIL'}`,
      row.rssBeforeMb == null ? '' : row.rssBeforeMb.toFixed(0),
      row.peakRssMb == null ? '' : `${row.peakRssMb.toFixed(0)} ${row.peakRssMb < GOAL_RSS_MB ? 'PASS' : 'FAIL'}`,
      row.cpu == null
        ? ''
        : `${row.cpu.server.toFixed(1)} / ${row.cpu.client.toFixed(1)} / ${row.cpu.machineBusy.toFixed(1)}`,
    ];
  });
  console.log(
    '\n' +
      formatTable(
        [
          { title: 'transfer' },
          { title: 'MB', align: 'right' },
          { title: 'seconds', align: 'right' },
          { title: 'MB/s', align: 'right' },
          { title: 'share of cp + sync' },
          { title: 'server RSS before (MiB)', align: 'right' },
          { title: `server peak RSS (MiB, goal < ${GOAL_RSS_MB})`, align: 'right' },
          { title: 'CPU s: server / client / machine', align: 'right' },
        ],
        table,
      ),
  );
  console.log(
    `\nServer VmHWM (lifetime peak, start-up and migrations included): ${mb(hwmKb).toFixed(0)} MiB. ` +
      `RSS sampled every ${SAMPLE_MS} ms from /proc/<pid>/status. Upload times include storing the blob ` +
      `(fsync) and the database row; tus sends PATCHes of ${chunkBytes / MiB} MiB (the web app's TUS_CHUNK_SIZE ` +
      `unless --chunk-mib). CPU: seconds of the receiving process and of the bench's client (user + system), and ` +
      `the busy seconds of all cores (every process on the machine); a machine busy for close to the cores × the ` +
      `upload's seconds was short of CPU. The null sink reads and drops the body: the client's cost alone. ` +
      `Browser rows run the whole app (api and worker in one process) and Chromium on the same cores.` +
      (rows.some((row) => row.name.includes('S3'))
        ? ' On S3 each tus PATCH goes to the bucket as multipart-upload parts (8 MiB, each buffered in the OS ' +
          "temporary folder while it is sent) and the last byte completes the upload at the image's key, no copy; " +
          's3rver writes every part to its disk and copies them all into the object when the upload completes.'
        : ''),
  );
}

interface Services {
  postgres: EmbeddedServer;
  issuer: TokenIssuer;
  database: Database;
}

/** Starts `main.ts --role api` on `storage` and a case to upload into; returns what to upload to and the pid. */
async function startApi(root: string, services: Services, storage: Record<string, string>, label: string) {
  const port = await freePort();
  const server = startServerProcess(
    {
      DATABASE_URL: services.postgres.url,
      DATA_DIR: path.join(root, `data-${label}`),
      PORT: String(port),
      HOST: '127.0.0.1',
      OIDC_ISSUER: services.issuer.issuer,
      OIDC_CLIENT_ID: AUDIENCE,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      ...storage,
    },
    ['--role', 'api'],
  );
  const base = `http://127.0.0.1:${port}`;
  await waitForHealthy(base, server);
  const make = factories(services.database.db);
  const group = await make.organization();
  const caseId = await make.case({ ownerOrganizationId: group, caseNumber: `BENCH-${label}` });
  const subject = `bench-uploader-${label}`;
  await make.join(await make.account({ subject }), group, 'member');
  const target: UploadTarget = { base, auth: `Bearer ${await services.issuer.token(subject, AUDIENCE)}`, caseId };
  return { server, target };
}

/** POST images and tus into one api process; a row each, checked against the size the database recorded. */
async function measureServer(
  server: ServerProcess,
  target: UploadTarget,
  options: Options & { slide: string; label: string; baseline: number },
  database: Database,
): Promise<Row[]> {
  const sampler = new RssSampler(server.child.pid!);
  const meter = new CpuMeter(server.child.pid!);
  const kinds = [{ name: 'POST images', goal: GOALS.post, upload: uploadPost }];
  if (options.tus) {
    kinds.push({
      name: 'tus',
      goal: GOALS.tus,
      upload: (to, file, size, name) => uploadTus(to, file, size, name, options.chunkBytes),
    });
  }
  const rows: Row[] = [];
  for (const { name, goal, upload } of kinds) {
    const before = (await sampler.read()).rssKb;
    sampler.start();
    await meter.start();
    const start = performance.now();
    const id = await upload(
      target,
      options.slide,
      options.sizeBytes,
      `${name.replace(/\W/g, '')}-${options.label}.tif`,
    ).catch((error: unknown) => {
      throw new Error(`${name} → ${options.label} failed; the server said:\n${server.output()}`, { cause: error });
    });
    const seconds = (performance.now() - start) / 1000;
    const cpu = await meter.stop();
    const peak = await sampler.stop();
    const [row] = await database.db.select({ size: images.size }).from(images).where(eq(images.id, id));
    if (row?.size !== options.sizeBytes) throw new Error(`${name}: stored ${row?.size} bytes`);
    const label = `${name} → ${options.label}`;
    rows.push({
      name: label,
      bytes: options.sizeBytes,
      seconds,
      rssBeforeMb: mb(before),
      peakRssMb: mb(peak),
      baseline: { seconds: options.baseline, goal },
      cpu,
    });
    process.stdout.write(`${label}: ${seconds.toFixed(1)} s\n`);
  }
  return rows;
}

/** The client alone: POST images' body sent to a process that drops it. */
async function measureSink(slide: string, size: number): Promise<Row> {
  const sink = await startNullSink();
  try {
    const meter = new CpuMeter(sink.child.pid!);
    await meter.start();
    const start = performance.now();
    await uploadPost({ base: sink.base, auth: '', caseId: 'sink' }, slide, size, 'sink.tif');
    const seconds = (performance.now() - start) / 1000;
    return { name: 'POST → null sink (client alone)', bytes: size, seconds, cpu: await meter.stop() };
  } finally {
    await sink.stop();
  }
}

/** Generates the slide, measures cp + sync, then the server-only paths (filesystem, S3) and the browser's. */
export async function run(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-bench-upload-'));
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const disk = await fs.statfs(root);
    console.log(
      `Disk of ${os.tmpdir()}\n${formatLines([['free', `${((disk.bavail * disk.bsize) / 1024 ** 3).toFixed(1)} GiB`]])}\n`,
    );
    const slide = path.join(root, 'slide.tif');
    const generated = performance.now();
    await writeSlide(slide, options.sizeBytes);
    console.log(`Generated ${slide} in ${((performance.now() - generated) / 1000).toFixed(1)} s`);

    const baseline = await copyAndSync([slide], path.join(root, 'copy'));
    const rows: Row[] = [{ name: 'cp + sync (same disk)', bytes: options.sizeBytes, seconds: baseline }];
    rows.push(await measureSink(slide, options.sizeBytes));

    const postgres = await startEmbeddedPostgres({
      dataDir: path.join(root, 'pg'),
      port: await freePort(),
      database: 'pathology_bench',
    });
    stops.push(() => postgres.stop());
    const issuer = await startTokenIssuer();
    stops.push(() => issuer.close());
    const database = createDatabase(postgres.url, { max: 2 });
    stops.push(() => database.close());
    const services: Services = { postgres, issuer, database };

    const local = await startApi(root, services, {}, 'filesystem');
    stops.push(() => local.server.stop());
    rows.push(
      ...(await measureServer(
        local.server,
        local.target,
        { ...options, slide, label: 'filesystem', baseline },
        database,
      )),
    );
    let hwmKb = Number(
      /^VmHWM:\s+(\d+) kB/m.exec(await fs.readFile(`/proc/${local.server.child.pid}/status`, 'utf8'))?.[1] ?? 0,
    );

    if (options.s3) {
      // tus uploads on S3 go to the bucket as multipart uploads (@tus/s3-store), completed at the image's key.
      const s3 = await startS3Server(path.join(root, 's3'), ['slides']);
      stops.push(() => s3.stop());
      const remote = await startApi(root, services, s3.env('slides'), 's3');
      stops.push(() => remote.server.stop());
      rows.push(
        ...(await measureServer(
          remote.server,
          remote.target,
          { ...options, slide, label: 'S3 (s3rver)', baseline },
          database,
        )),
      );
      hwmKb = Math.max(
        hwmKb,
        Number(
          /^VmHWM:\s+(\d+) kB/m.exec(await fs.readFile(`/proc/${remote.server.child.pid}/status`, 'utf8'))?.[1] ?? 0,
        ),
      );
    }

    if (options.browser) {
      const bulkSlide = path.join(root, 'bulk.tif');
      await writeSlide(bulkSlide, options.bulkBytes);
      const bulk = await bulkNames(path.join(root, 'bulk'), bulkSlide, BULK_FILES);
      const bulkBaseline = await copyAndSync(bulk, path.join(root, 'bulk-copy'));
      rows.push({
        name: `cp + sync of ${BULK_FILES} files`,
        bytes: options.bulkBytes * BULK_FILES,
        seconds: bulkBaseline,
      });
      const figures = await uploadFromBrowser(slide, bulk);
      rows.push({
        name: 'browser: Add Images dialog (tus-js-client)',
        bytes: options.sizeBytes,
        seconds: figures.dialogSeconds,
        baseline: { seconds: baseline, goal: GOALS.tus },
      });
      rows.push({
        name: `browser: bulk upload of ${BULK_FILES} files`,
        bytes: options.bulkBytes * BULK_FILES,
        seconds: figures.bulkSeconds!,
        baseline: { seconds: bulkBaseline, goal: GOALS.bulk },
      });
    }
    if (options.sweepBytes.length > 0) {
      for (const { chunkBytes, seconds } of await sweepChunkSizes(slide, options.sweepBytes)) {
        rows.push({
          name: `browser: tus-js-client, ${chunkBytes / MiB} MiB chunks`,
          bytes: options.sizeBytes,
          seconds,
          baseline: { seconds: baseline, goal: GOALS.tus },
        });
      }
    }
    printResults(rows, hwmKb, options.chunkBytes);
  } finally {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error));
    await fs.rm(root, { recursive: true, force: true });
  }
}
