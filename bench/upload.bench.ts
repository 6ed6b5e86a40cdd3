import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDatabase } from '../apps/server/src/db/client.ts';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { freePort } from '../apps/server/test/free-port.ts';
import { startS3Server } from '../apps/server/test/s3-server.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { startTokenIssuer } from '../apps/server/test/token-issuer.ts';
import { startNginx } from './tiles/servers.ts';
import type { BrowserBreakdown } from './upload/breakdown.ts';
import { browserSettings, openBrowserPath } from './upload/browser-path.ts';
import { fromBrowser, postTo, putToNginx, tusTo } from './upload/measures.ts';
import { printAppFigures } from './upload/app-figures.ts';
import { NGINX_DAV, type Measure } from './upload/judge.ts';
import { printResults } from './upload/report.ts';
import { startOurs, type Ours } from './upload/ours.ts';
import { prepareTestFile, type FileChoice, type TestFile } from './upload/test-file.ts';
import { formatLines } from './support/machine.ts';

export const description =
  'One file (a real slide, --file, padded to --size 2G or sent --size as-is; --generated for random bytes) sent ' +
  'with curl to nginx (WebDAV PUT + fsync), our POST images and our tus as one PATCH, interleaved --runs 3 times, ' +
  'and from Chromium through the web app’s upload code (--skip-browser); cp + sync beside. --s3 adds ours on S3, ' +
  '--app-dialog the whole app’s dialog and bulk screen (--bulk-mb N), --sweep-mib 8,32,… tus chunk sizes';

const GiB = 1024 ** 3;
const MiB = 1024 * 1024;
const execFileAsync = promisify(execFile);

interface Options {
  file: FileChoice;
  runs: number;
  browser: boolean;
  s3: boolean;
  appDialog: boolean;
  bulkBytes: number;
  sweepBytes: number[];
}

/** 2G, 512M, 1.5G (binary units; a bare number is GiB), or as-is. */
function parseSize(text: string | undefined): number | 'as-is' {
  if (text === 'as-is') return text;
  const match = /^(\d+(?:\.\d+)?)([KMG]?)i?B?$/i.exec(text ?? '');
  if (match == null) throw new Error(`--size takes 2G, 512M or as-is (got ${text})`);
  const unit = { K: 1024, M: MiB, G: GiB, '': GiB }[match[2]!.toUpperCase() as 'K' | 'M' | 'G' | ''];
  const bytes = Math.round(Number(match[1]) * unit);
  if (!(bytes > 0)) throw new Error('--size must be positive');
  return bytes;
}

function parseArgs(args: string[]): Options {
  let source = slidePath('CMU-1-Small-Region.svs');
  let size: number | 'as-is' = 2 * GiB;
  let generated = false;
  const options = { runs: 3, browser: true, s3: false, appDialog: false, bulkBytes: 200e6, sweepBytes: [] as number[] };
  for (let i = 0; i < args.length; i += 1) {
    const [arg = '', inline] = args[i]!.split('=', 2);
    const text = () => inline ?? args[++i];
    if (arg === '--file') source = path.resolve(text() ?? '');
    else if (arg === '--size') size = parseSize(text());
    else if (arg === '--generated') generated = true;
    else if (arg === '--runs') options.runs = Number(text());
    else if (arg === '--skip-browser') options.browser = false;
    else if (arg === '--s3') options.s3 = true;
    else if (arg === '--app-dialog') options.appDialog = true;
    else if (arg === '--bulk-mb') options.bulkBytes = Number(text()) * 1e6;
    else if (arg === '--sweep-mib') options.sweepBytes = (text() ?? '').split(',').map((mib) => Number(mib) * MiB);
    else
      throw new Error(
        `unknown option ${arg} (known: --file PATH, --size 2G|512M|as-is, --generated, --runs N, --skip-browser, ` +
          '--s3, --app-dialog, --bulk-mb N, --sweep-mib N,N,…)',
      );
  }
  if (!(Number.isInteger(options.runs) && options.runs > 0)) throw new Error('--runs takes a whole number above 0');
  if (!(options.bulkBytes > 0) || options.sweepBytes.some((bytes) => !(bytes > 0))) {
    throw new Error('--bulk-mb and --sweep-mib take positive numbers');
  }
  if (generated && size === 'as-is') throw new Error('--generated needs a --size');
  const file: FileChoice =
    size === 'as-is' ? { kind: 'as-is', source } : { kind: generated ? 'generated' : 'padded', source, size };
  return { ...options, file };
}

/** Seconds to copy the file and fsync the copy (coreutils `sync FILE`), as nginx's file is fsynced. */
async function copyAndSync(file: string, folder: string): Promise<number> {
  await fs.mkdir(folder, { recursive: true });
  const copy = path.join(folder, path.basename(file));
  const start = performance.now();
  await execFileAsync('cp', [file, copy]);
  await execFileAsync('sync', [copy]);
  const seconds = (performance.now() - start) / 1000;
  await fs.rm(folder, { recursive: true });
  return seconds;
}

export async function run(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-bench-upload-'));
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const disk = await fs.statfs(root);
    const test = await prepareTestFile(options.file, root);
    console.log(
      `Upload\n${formatLines([
        ['file', test.origin],
        ['disk', `${root}: ${((disk.bavail * disk.bsize) / GiB).toFixed(1)} GiB free; every system writes there`],
        ['warm-up', `one untimed upload of ${path.basename(options.file.source)} as it is to each system before run 1`],
      ])}\n`,
    );
    const copySeconds = await copyAndSync(test.file, path.join(root, 'copy'));

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
    const services = { postgres, issuer, database, root };
    const local = await startOurs(services, {}, 'filesystem');
    stops.push(() => local.stop());
    let s3: Ours | undefined;
    if (options.s3) {
      // tus uploads on S3 go to the bucket as multipart uploads (@tus/s3-store), completed at the image's key.
      const bucket = await startS3Server(path.join(root, 's3'), ['slides']);
      stops.push(() => bucket.stop());
      s3 = await startOurs(services, bucket.env('slides'), 's3');
      stops.push(() => s3!.stop());
    }
    // nginx writes the body to its client_body temp folder in `dir` (beside our DATA_DIR) and renames it into `dav`.
    const davRoot = path.join(root, 'dav');
    await fs.mkdir(davRoot);
    const nginx = await startNginx(path.join(root, 'nginx'), davRoot, { server: NGINX_DAV });
    stops.push(() => nginx.stop());
    const browser = options.browser ? await openBrowserPath(local.target.base) : undefined;
    if (browser != null) stops.push(() => browser.close());

    const measures: Measure[] = [];
    const breakdowns: { run: number; figures: BrowserBreakdown }[] = [];
    /** Run 0 is the warm-up, on the real slide as it is: the first upload of each process pays for its start. */
    const measureRun = async (run: number, file: TestFile) => {
      const done = (measure: Measure) => {
        if (run === 0) return;
        measures.push(measure);
        console.log(
          `run ${run} ${measure.system}: load ${measure.load.toFixed(2)} before, ${measure.seconds.toFixed(2)} s, ` +
            `${(measure.bytes / 1e6 / measure.seconds).toFixed(0)} MB/s`,
        );
      };
      for (const [ours, where] of [
        [local, ''],
        [s3, ' → S3'],
      ] as const) {
        if (ours == null) continue;
        done(await postTo(ours, `ours POST images${where}`, run, file));
        done(await putToNginx(nginx, davRoot, run, file));
        done(await tusTo(ours, `ours tus, one PATCH${where}`, run, file));
        done(await putToNginx(nginx, davRoot, run, file));
      }
      if (browser != null) {
        const { measure, figures } = await fromBrowser(browser, local, run, file);
        done(measure);
        if (run > 0) breakdowns.push({ run, figures });
      }
    };
    await measureRun(0, await prepareTestFile({ kind: 'as-is', source: options.file.source }, root));
    for (let run = 1; run <= options.runs; run += 1) await measureRun(run, test);
    printResults({ measures, breakdowns, copySeconds, size: test.size });
    if (browser != null)
      console.log(`\nBrowser: headless Chromium on a page of our server running ${browserSettings()}.`);
    await printAppFigures(options, test, root);
  } finally {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error));
    await fs.rm(root, { recursive: true, force: true });
  }
}
