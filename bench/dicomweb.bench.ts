// First: it records the environment before the imaging modules load sharp (see the module).
import { restoreVipsHome } from './support/child-env.ts';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import yazl from 'yazl';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createDatabase } from '../apps/server/src/db/client.ts';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { dicomUids } from '../apps/server/src/modules/dicomweb/dicom-uids.ts';
import { factories } from '../apps/server/test/factories.ts';
import { freePort } from '../apps/server/test/free-port.ts';
import { orthancMissing, startOrthanc } from '../apps/server/test/orthanc.ts';
import { startServerProcess, waitForHealthy } from '../apps/server/test/server-process.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { startTokenIssuer } from '../apps/server/test/token-issuer.ts';
import { deriveLargeSlide, SMALL } from './support/derived-slides.ts';
import { loadWhenQuiet, QUIET_LOAD, verdictWhenQuiet } from './support/quiet.ts';
import { runWrk } from './tiles/wrk.ts';

export const description =
  "DICOMweb frames per second at 1 and 16 connections: our frames route against our IIIF tiles of the same slide and against Orthanc's DICOMweb holding it dicomized; end of a DICOM upload of the 1.1-GP replica to its first frame and first IIIF tile; Orthanc is measured after all of ours (--quick: the small SVS, 3 s runs; --duration 10s, --rounds 2)";

const exec = promisify(execFile);
const AUDIENCE = 'bench';
const OCTETS = 'multipart/related; type="application/octet-stream"; transfer-syntax=*';
/** 2220 × 2967 replicated 14 × 12: the issue's 1.1-GP Aperio-style slide. */
const REPLICATE: [number, number] = [14, 12];
const TILE = 512;
const CONNECTIONS = [1, 16] as const;
const GOALS = { vsIiif: 0.9, vsOrthanc: 2, firstSeconds: 3 };

interface Options {
  quick: boolean;
  seconds: number;
  rounds: number;
}

function parseArgs(args: string[]): Options {
  const options: Options = { quick: false, seconds: 10, rounds: 2 };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--quick') Object.assign(options, { quick: true, seconds: 3, rounds: 1 });
    else if (arg === '--duration') options.seconds = Math.max(1, Number.parseInt(args[++i] ?? '', 10) || 1);
    else if (arg === '--rounds') options.rounds = Math.max(1, Number.parseInt(args[++i] ?? '', 10) || 1);
    else throw new Error(`unknown option ${arg} (known: --quick, --duration 10, --rounds 2)`);
  }
  return options;
}

type Json = Record<string, { Value?: unknown[] }>;
const value = (entry: Json, tag: string) => entry[tag]?.Value?.[0];

/** The finest VOLUME instance of a series and its frame count, from its metadata. */
async function finestLevel(seriesUrl: string, headers: Record<string, string>) {
  const response = await fetch(`${seriesUrl}/metadata`, { headers: { ...headers, accept: 'application/dicom+json' } });
  if (!response.ok) throw new Error(`${seriesUrl}/metadata: HTTP ${response.status}`);
  const volumes = ((await response.json()) as Json[]).filter((entry) => entry['00080008']?.Value?.[2] === 'VOLUME');
  const finest = volumes.reduce((a, b) => (Number(value(b, '00480006')) > Number(value(a, '00480006')) ? b : a));
  return {
    uid: String(value(finest, '00080018')),
    frames: Number(value(finest, '00280008')),
    columns: Number(value(finest, '00480006')),
    rows: Number(value(finest, '00480007')),
  };
}

/** The same random order of indices for every system (a fixed seed), so each reads the same spread of tiles. */
function shuffled(count: number): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  let seed = 20261128;
  for (let i = order.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

async function poll(what: string, attempt: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  while (!(await attempt())) {
    if (performance.now() - start > 30 * 60_000) throw new Error(`${what}: not within 30 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return (performance.now() - start) / 1000;
}

export async function run(args: string[]): Promise<void> {
  const options = parseArgs(args);
  restoreVipsHome();
  const missing = orthancMissing();
  if (missing != null) throw new Error(`Orthanc is needed: ${missing}`);
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-bench-dicomweb-'));
  const stops: (() => Promise<unknown>)[] = [async () => fs.rm(root, { recursive: true, force: true })];
  try {
    const slide = options.quick ? slidePath(SMALL) : await deriveLargeSlide(root, REPLICATE);
    console.log(`Slide: ${options.quick ? `${SMALL} (--quick)` : `${SMALL} replicated ${REPLICATE.join(' × ')}`}`);
    const dicomDir = path.join(root, 'dicom');
    await fs.mkdir(dicomDir);
    let start = performance.now();
    // The Dicomizer keeps the source's tiles or cuts them to a divisor of their size: a 512-px tiled copy first,
    // so that its frames are the same 512-px squares as our IIIF tiles and frames.
    const tiled = path.join(root, 'tiled-512.tif');
    await exec('vips', [
      'copy',
      `${slide}[rgb]`,
      `${tiled}[tile,pyramid,compression=jpeg,Q=90,tile-width=${TILE},tile-height=${TILE},bigtiff]`,
    ]);
    // The Dicomizer leaves ImageType out, which viewers (and our import) find the levels by.
    const dataset = path.join(root, 'dataset.json');
    await fs.writeFile(dataset, JSON.stringify({ ImageType: 'ORIGINAL\\PRIMARY\\VOLUME\\NONE' }));
    await exec('OrthancWSIDicomizer', [
      ...['--dataset', dataset, '--folder', dicomDir, '--compression', 'jpeg', '--pyramid', '0', '--max-size', '0'],
      ...['--tile-width', String(TILE), '--tile-height', String(TILE), tiled],
    ]);
    const dicomFiles = (await fs.readdir(dicomDir))
      .filter((file) => file.endsWith('.dcm'))
      .map((f) => path.join(dicomDir, f));
    console.log(
      `Dicomized by OrthancWSIDicomizer in ${((performance.now() - start) / 1000).toFixed(1)} s: ${dicomFiles.length} instances`,
    );
    const zip = path.join(root, 'dicomized.zip');
    const zipFile = new yazl.ZipFile();
    for (const file of dicomFiles) zipFile.addFile(file, path.basename(file), { compress: false });
    zipFile.end();
    await pipeline(zipFile.outputStream, createWriteStream(zip));

    const postgres = await startEmbeddedPostgres({
      dataDir: path.join(root, 'pg'),
      port: await freePort(),
      database: 'bench',
    });
    stops.push(() => postgres.stop());
    const issuer = await startTokenIssuer();
    stops.push(() => issuer.close());
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = startServerProcess(
      {
        DATABASE_URL: postgres.url,
        DATA_DIR: path.join(root, 'data'),
        STORAGE_URL: path.join(root, 'blobs'),
        PORT: String(port),
        HOST: '127.0.0.1',
        OIDC_ISSUER: issuer.issuer,
        OIDC_CLIENT_ID: AUDIENCE,
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'false',
        HTTP_PROCESSES: String(os.availableParallelism()),
      },
      ['--role', 'all'],
    );
    stops.push(() => server.stop());
    await waitForHealthy(base, server);
    const database = createDatabase(postgres.url, { max: 2 });
    stops.push(() => database.close());
    const make = factories(database.db);
    const group = await make.organization();
    const caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'BENCH-DICOMWEB' });
    await make.join(await make.account({ subject: 'bench-viewer' }), group, 'member');
    const auth = { authorization: `Bearer ${await issuer.token('bench-viewer', AUDIENCE)}` };

    // The DICOM upload: from the end of the upload (its 201) to the first frame and the first IIIF tile.
    const uploadLoad = await loadWhenQuiet();
    const query = new URLSearchParams({ caseId, filename: 'dicomized.zip' });
    const posted = await fetch(`${base}/api/v1/images?${query.toString()}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      body: await fs.readFile(zip),
    });
    if (posted.status !== 201) throw new Error(`POST images: HTTP ${posted.status} ${await posted.text()}`);
    start = performance.now();
    const { id: imageId } = (await posted.json()) as { id: string };
    const seriesUrl = `${base}/dicomweb/studies/${dicomUids.study(caseId)}/series/${dicomUids.series(imageId)}`;
    let ours: Awaited<ReturnType<typeof finestLevel>> | null = null;
    await poll('first frame', async () => {
      ours ??= await finestLevel(seriesUrl, auth).catch(() => null);
      if (ours == null) return false;
      const frame = await fetch(`${seriesUrl}/instances/${ours.uid}/frames/1`, {
        headers: { ...auth, accept: OCTETS },
      });
      await frame.arrayBuffer();
      return frame.ok;
    });
    const firstFrame = (performance.now() - start) / 1000;
    let layerId: string | null = null;
    await poll('first IIIF tile', async () => {
      if (layerId == null) {
        const image = (await (await fetch(`${base}/api/v1/images/${imageId}`, { headers: auth })).json()) as {
          imageLayerResources?: { id: string }[];
        };
        layerId = image.imageLayerResources?.[0]?.id ?? null;
        if (layerId == null) return false;
      }
      const tile = await fetch(`${base}/iiif/2/${layerId}/0,0,${TILE},${TILE}/${TILE},/0/default.jpg`, {
        headers: auth,
      });
      await tile.arrayBuffer();
      return tile.ok;
    });
    const firstTile = (performance.now() - start) / 1000;
    const level = ours!;

    const orthanc = await startOrthanc();
    stops.push(() => orthanc.stop());
    const stored = await orthanc.store(dicomFiles);
    const orthancSeries = `${orthanc.root}/studies/${stored.study}/series/${stored.series}`;
    const theirs = await finestLevel(orthancSeries, {});

    // Every frame of the finest level once, in one random order; IIIF asks for the same tiles by region.
    const across = Math.ceil(level.columns / TILE);
    const order = shuffled(level.frames);
    const lists = {
      // Edge tiles as a IIIF viewer asks for them: the region cut at the slide's edge, at its own size.
      'IIIF tiles (ours)': order.map((i) => {
        const [x, y] = [(i % across) * TILE, Math.floor(i / across) * TILE];
        const [w, h] = [Math.min(TILE, level.columns - x), Math.min(TILE, level.rows - y)];
        return `/iiif/2/${layerId}/${x},${y},${w},${h}/${w},/0/default.jpg`;
      }),
      'DICOMweb frames (ours)': order.map(
        (i) => `${new URL(seriesUrl).pathname}/instances/${level.uid}/frames/${i + 1}`,
      ),
      'DICOMweb frames (Orthanc)': shuffled(theirs.frames).map(
        (i) => `${new URL(orthancSeries).pathname}/instances/${theirs.uid}/frames/${i + 1}`,
      ),
    };
    const files: Record<string, string> = {};
    for (const [name, paths] of Object.entries(lists)) {
      files[name] = path.join(root, `${name.replace(/\W+/g, '-')}.txt`);
      await fs.writeFile(files[name], `${paths.join('\n')}\n`);
    }
    // Each measure with the load average before it. Orthanc's runs come after all of ours: it keeps working through
    // the requests wrk left queued (minutes, at 16 connections on the large slide), which would slow our next run.
    const results = new Map<string, { perSecond: number; errors: number; load: number }[]>();
    const names = Object.keys(lists);
    const turns = [names.filter((name) => !name.includes('Orthanc')), names.filter((name) => name.includes('Orthanc'))];
    for (const systems of turns) {
      for (let round = 0; round < options.rounds; round++) {
        for (const connections of CONNECTIONS) {
          for (const name of systems) {
            const load = await loadWhenQuiet();
            const orthancRun = name.includes('Orthanc');
            const result = await runWrk({
              base: orthancRun ? orthanc.url : base,
              pathsFile: files[name]!,
              connections,
              seconds: options.seconds,
              headers: { ...(orthancRun ? {} : auth), ...(name.includes('frames') ? { accept: OCTETS } : {}) },
              limit: null,
              dir: root,
            });
            const key = `${name}@${connections}`;
            results.set(key, [...(results.get(key) ?? []), { ...result, load }]);
          }
        }
      }
    }
    /** The best round of a system on a quiet machine (with its load), or of all rounds when none was quiet. */
    const best = (name: string, connections: number) => {
      const runs = results.get(`${name}@${connections}`)!;
      const quiet = runs.filter((run) => run.load <= QUIET_LOAD);
      return (quiet.length > 0 ? quiet : runs).reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
    };
    const loads = [...results.values()].flat().map((run) => run.load);
    console.log(
      `\nFrames per second, best of ${options.rounds} round(s) of ${options.seconds} s on a quiet machine, load ${loads.map((l) => l.toFixed(1)).join(' ')}`,
    );
    console.log(
      `${'system'.padEnd(28)}${CONNECTIONS.map((c) => `${c} conn`.padStart(12)).join('')}${'errors'.padStart(8)}`,
    );
    for (const name of names) {
      const errors = CONNECTIONS.flatMap((c) => results.get(`${name}@${c}`)!).reduce((sum, r) => sum + r.errors, 0);
      console.log(
        `${name.padEnd(28)}${CONNECTIONS.map((c) => best(name, c).perSecond.toFixed(0).padStart(12)).join('')}${String(errors).padStart(8)}`,
      );
    }
    console.log('\nGoals');
    for (const connections of CONNECTIONS) {
      const frames = best('DICOMweb frames (ours)', connections);
      const iiif = best('IIIF tiles (ours)', connections);
      const orthancFrames = best('DICOMweb frames (Orthanc)', connections);
      const vsIiif = frames.perSecond / iiif.perSecond;
      const vsOrthanc = frames.perSecond / orthancFrames.perSecond;
      const orthancText =
        orthancFrames.perSecond === 0 ? 'Orthanc answered no frame in the run' : `${vsOrthanc.toFixed(2)}×`;
      console.log(
        `  ${connections} conn: frames / IIIF ${vsIiif.toFixed(2)}× (goal ≥ ${GOALS.vsIiif}×) ${verdictWhenQuiet(vsIiif >= GOALS.vsIiif, [frames.load, iiif.load])}`,
      );
      console.log(
        `  ${connections} conn: frames / Orthanc ${orthancText} (goal ≥ ${GOALS.vsOrthanc}×) ${verdictWhenQuiet(vsOrthanc >= GOALS.vsOrthanc, [frames.load, orthancFrames.load])}`,
      );
    }
    const firstOk = Math.max(firstFrame, firstTile) < GOALS.firstSeconds;
    console.log(
      `  end of DICOM upload → first frame ${firstFrame.toFixed(2)} s, first IIIF tile ${firstTile.toFixed(2)} s (goal < ${GOALS.firstSeconds} s) ${verdictWhenQuiet(firstOk, [uploadLoad])}`,
    );
  } finally {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error));
  }
}
