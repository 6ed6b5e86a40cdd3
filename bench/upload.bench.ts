import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { createDatabase, type Database } from '../apps/server/src/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedServer } from '../apps/server/src/db/embedded.ts';
import { images } from '../apps/server/src/db/schema/index.ts';
import { factories } from '../apps/server/test/factories.ts';
import { freePort } from '../apps/server/test/free-port.ts';
import { startServerProcess, waitForHealthy, type ServerProcess } from '../apps/server/test/server-process.ts';
import { formatLines } from './support/machine.ts';
import { formatTable } from './support/table.ts';
import { startTokenIssuer, type TokenIssuer } from './support/token-issuer.ts';

export const description =
  'Streams a multi-GB .tif into the real server (POST images, then tus): peak server RSS and MB/s next to cp (--size-gb N, --skip-tus)';

/** The issue's goal for the api process while it receives a slide. */
const GOAL_RSS_MB = 300;
const MB = 1e6;
const MiB = 1024 * 1024;
const SAMPLE_MS = 50;
/** Size of one tus PATCH, as a browser client would send (tus-js-client chunkSize). */
const TUS_CHUNK = 256 * MiB;
const AUDIENCE = 'bench';

interface Options {
  sizeBytes: number;
  tus: boolean;
}

function parseArgs(args: string[]): Options {
  let sizeGb = 2;
  let tus = true;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--skip-tus') tus = false;
    else if (arg === '--size-gb') sizeGb = Number(args[++i]);
    else if (arg.startsWith('--size-gb=')) sizeGb = Number(arg.slice('--size-gb='.length));
    else throw new Error(`unknown option ${arg} (known: --size-gb N, --skip-tus)`);
  }
  if (!(sizeGb > 0)) throw new Error('--size-gb must be a positive number');
  return { sizeBytes: Math.round(sizeGb * 1024 ** 3), tus };
}

/**
 * A TIFF header (all the content check reads) followed by real, incompressible bytes: a random
 * block written over and over, so the file takes its full size on disk (not sparse).
 */
async function writeSlide(file: string, size: number): Promise<void> {
  const block = randomBytes(64 * MiB);
  block.write('II', 0, 'latin1');
  block.writeUInt16LE(42, 2);
  block.writeUInt32LE(8, 4);
  const handle = await fs.open(file, 'wx');
  try {
    for (let written = 0; written < size;) {
      const { bytesWritten } = await handle.write(block, 0, Math.min(block.length, size - written), written);
      written += bytesWritten;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
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

/** Sends a byte range of `file` as one request body with Content-Length, streamed from disk. */
async function send(
  url: string,
  options: { method: string; headers: Record<string, string>; file: string; start: number; end: number },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const length = options.end - options.start;
  const request = http.request(url, {
    method: options.method,
    headers: { ...options.headers, 'content-length': String(length) },
  });
  const answered = once(request, 'response') as Promise<[http.IncomingMessage]>;
  if (length > 0) createReadStream(options.file, { start: options.start, end: options.end - 1 }).pipe(request);
  else request.end();
  const [response] = await answered;
  let body = '';
  for await (const chunk of response) body += String(chunk);
  return { status: response.statusCode ?? 0, headers: response.headers, body };
}

async function uploadPost(base: string, auth: string, caseId: string, file: string, size: number): Promise<string> {
  const query = new URLSearchParams({ caseId, filename: `post-${path.basename(file)}` });
  const response = await send(`${base}/api/v1/images?${query.toString()}`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/octet-stream' },
    file,
    start: 0,
    end: size,
  });
  if (response.status !== 201) throw new Error(`POST images: HTTP ${response.status} ${response.body}`);
  return (JSON.parse(response.body) as { id: string }).id;
}

async function uploadTus(base: string, auth: string, caseId: string, file: string, size: number): Promise<string> {
  const tus = { authorization: auth, 'tus-resumable': '1.0.0' };
  const metadata = [`caseId ${btoa(caseId)}`, `filename ${btoa(`tus-${path.basename(file)}`)}`].join(',');
  const created = await send(`${base}/api/v1/uploads/images`, {
    method: 'POST',
    headers: { ...tus, 'upload-length': String(size), 'upload-metadata': metadata },
    file,
    start: 0,
    end: 0,
  });
  if (created.status !== 201) throw new Error(`tus creation: HTTP ${created.status} ${created.body}`);
  const url = new URL(String(created.headers.location), base).href;
  for (let offset = 0; offset < size; offset += TUS_CHUNK) {
    const end = Math.min(size, offset + TUS_CHUNK);
    const response = await send(url, {
      method: 'PATCH',
      headers: { ...tus, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) },
      file,
      start: offset,
      end,
    });
    if (end === size && response.status === 200) return (JSON.parse(response.body) as { id: string }).id;
    if (response.status !== 204) throw new Error(`tus PATCH at ${offset}: HTTP ${response.status} ${response.body}`);
  }
  throw new Error('tus upload ended without a final answer');
}

async function exec(command: string, args: string[]): Promise<void> {
  const child = spawn(command, args, { stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} exited with ${code}`);
}

interface Row {
  name: string;
  seconds: number;
  rssBeforeMb?: number;
  peakRssMb?: number;
}

const mb = (kb: number) => kb / 1024;

function printResults(rows: Row[], size: number, hwmKb: number): void {
  console.log(`\nResults: ${(size / MB).toFixed(0)} MB (${(size / 1024 ** 3).toFixed(2)} GiB) file\n`);
  const table = rows.map((row) => [
    row.name,
    row.seconds.toFixed(2),
    (size / MB / row.seconds).toFixed(0),
    row.rssBeforeMb == null ? '' : row.rssBeforeMb.toFixed(0),
    row.peakRssMb == null ? '' : row.peakRssMb.toFixed(0),
    row.peakRssMb == null ? '' : row.peakRssMb < GOAL_RSS_MB ? 'PASS' : 'FAIL',
  ]);
  console.log(
    formatTable(
      [
        { title: 'transfer' },
        { title: 'seconds', align: 'right' },
        { title: 'MB/s', align: 'right' },
        { title: 'server RSS before (MiB)', align: 'right' },
        { title: 'server peak RSS (MiB)', align: 'right' },
        { title: `peak < ${GOAL_RSS_MB} MiB` },
      ],
      table,
    ),
  );
  console.log(
    `\nServer VmHWM (lifetime peak, start-up and migrations included): ${mb(hwmKb).toFixed(0)} MiB. ` +
      `RSS sampled every ${SAMPLE_MS} ms from /proc/<pid>/status. Upload times include storing the blob ` +
      `(fsync on close) and the database row; the tus time includes all PATCHes of ${TUS_CHUNK / MiB} MiB and ` +
      `the final copy from the tus folder to the blob store.`,
  );
}

/** Starts PostgreSQL, a token issuer and `main.ts --role api`; uploads one generated slide each way; prints the figures. */
export async function run(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-bench-upload-'));
  let postgres: EmbeddedServer | undefined;
  let issuer: TokenIssuer | undefined;
  let server: ServerProcess | undefined;
  let database: Database | undefined;
  try {
    const disk = await fs.statfs(root);
    console.log(
      `Disk of ${os.tmpdir()}\n${formatLines([['free', `${((disk.bavail * disk.bsize) / 1024 ** 3).toFixed(1)} GiB`]])}\n`,
    );
    const slide = path.join(root, 'slide.tif');
    let start = performance.now();
    await writeSlide(slide, options.sizeBytes);
    console.log(`Generated ${slide} in ${((performance.now() - start) / 1000).toFixed(1)} s`);

    postgres = await startEmbeddedPostgres({
      dataDir: path.join(root, 'pg'),
      port: await freePort(),
      database: 'pathology_bench',
    });
    issuer = await startTokenIssuer();
    const port = await freePort();
    server = startServerProcess(
      {
        DATABASE_URL: postgres.url,
        DATA_DIR: path.join(root, 'data'),
        PORT: String(port),
        HOST: '127.0.0.1',
        OIDC_ISSUER: issuer.issuer,
        OIDC_CLIENT_ID: AUDIENCE,
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'false',
      },
      ['--role', 'api'],
    );
    const base = `http://127.0.0.1:${port}`;
    await waitForHealthy(base, server);
    const pid = server.child.pid!;

    database = createDatabase(postgres.url, { max: 2 });
    const make = factories(database.db);
    const group = await make.organization();
    const caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'BENCH-1' });
    await make.join(await make.account({ subject: 'bench-uploader' }), group, 'member');
    const auth = `Bearer ${await issuer.token('bench-uploader', AUDIENCE)}`;

    const rows: Row[] = [];
    const copy = path.join(root, 'copy.tif');
    start = performance.now();
    await exec('cp', [slide, copy]);
    rows.push({ name: 'cp (same disk)', seconds: (performance.now() - start) / 1000 });
    start = performance.now();
    await exec('cp', [slide, `${copy}.2`]);
    await exec('sync', ['-f', `${copy}.2`]);
    rows.push({ name: 'cp + sync (same disk)', seconds: (performance.now() - start) / 1000 });
    await fs.rm(copy);
    await fs.rm(`${copy}.2`);

    const sampler = new RssSampler(pid);
    const uploads = [{ name: 'POST images (one streamed request)', upload: uploadPost }];
    if (options.tus) uploads.push({ name: 'tus (POST + PATCHes)', upload: uploadTus });
    for (const { name, upload } of uploads) {
      const before = (await sampler.read()).rssKb;
      sampler.start();
      start = performance.now();
      const id = await upload(base, auth, caseId, slide, options.sizeBytes);
      const seconds = (performance.now() - start) / 1000;
      const peak = await sampler.stop();
      const [row] = await database.db.select({ size: images.size }).from(images).where(eq(images.id, id));
      if (row?.size !== options.sizeBytes) throw new Error(`${name}: stored ${row?.size} bytes`);
      rows.push({ name, seconds, rssBeforeMb: mb(before), peakRssMb: mb(peak) });
      process.stdout.write(`${name}: ${seconds.toFixed(1)} s\n`);
    }
    printResults(rows, options.sizeBytes, (await sampler.read()).hwmKb);
  } finally {
    await database?.close();
    await server?.stop();
    await issuer?.close();
    await postgres?.stop();
    await fs.rm(root, { recursive: true, force: true });
  }
}
