// First: it records the environment before the imaging modules load sharp (see the module).
import { restoreVipsHome } from './support/child-env.ts';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  convertImage,
  JPEG_COMPRESSION,
  readTiffStructure,
  type ConvertedImage,
  type TiffStructure,
} from '../apps/server/src/imaging/index.ts';
import { isOmeXml, omeIfdIndex, parseOmeXml } from '../apps/server/src/imaging/ome-xml.ts';
import {
  folderTiles,
  GOOGLE_LAYOUT_ARGS,
  googleLevels,
  googleTilesSize,
} from '../apps/server/src/imaging/google-tiles.ts';
import { TILE_SIZE, TILE_SUFFIX } from '../apps/server/src/imaging/pyramid.ts';
import { jpegComponents } from '../apps/server/src/imaging/jpeg-frame.ts';
import { makeNdpiSlides, NDPI_NAMES } from './convert/ndpi-slides.ts';
import { summarize } from './support/stats.ts';
import { traceSpawns, type SpawnRecord } from '../apps/server/test/spawn-trace.ts';
import { formatTable } from './support/table.ts';

export const description =
  'convertImage on every shared test slide, three large derived ones and three derived NDPI files (one of a whole slide’s size) against the vips CLI building the same pyramid (--runs N, --warmup N, --only=TEXT, --no-derived)';

/** The issue's goal: our conversion takes at most this multiple of the plain vips command line. */
const GOAL_RATIO = 1.1;
/** Issue 44's goal for NDPI files: no slower than vips converting the same file through OpenSlide. */
const NDPI_GOAL_RATIO = 1.0;

function goalOf(result: Measured): number {
  return result.slide.name.endsWith('.ndpi') ? NDPI_GOAL_RATIO : GOAL_RATIO;
}
const TIMEOUT_MS = 30 * 60_000;
/** Output options of the vips CLI baseline: the very tiles the pipeline writes (see imaging/pyramid.ts). */
const PYRAMID_FLAGS = [...GOOGLE_LAYOUT_ARGS, '--tile-size', String(TILE_SIZE), '--suffix', TILE_SUFFIX];
const REPLICATE = 8;
const DERIVED_FROM = 'CMU-1-Small-Region.svs';

const execFileAsync = promisify(execFile);
const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));

interface Options {
  runs: number;
  warmup: number;
  only: string | null;
  derived: boolean;
}

interface Slide {
  name: string;
  path: string;
  origin: string;
}

/** One vips CLI step of the baseline; `{out}` and `{tmp}` are replaced by the run's folders. */
type Step = string[];

interface Baseline {
  /** How the baseline reads the source, for the explanation under the table. */
  summary: string;
  /** Steps per layer; layer n writes the tile folder `{out}/layer-n`. */
  layers: Step[][];
}

interface Measured {
  slide: Slide;
  /** null when our pipeline failed on the slide; `error` then says why. */
  converted: ConvertedImage | null;
  error: string | null;
  /** Level 0 of layer 0 and the layer count, from our result or else from the vips output. */
  size: { width: number; height: number; layers: number };
  baseline: Baseline;
  ours: number[];
  vips: number[];
  /** Children our pipeline started in its median (or failing) run. */
  spawns: SpawnRecord[];
  layout: string;
}

function parseArgs(args: string[]): Options {
  const options: Options = { runs: 3, warmup: 1, only: null, derived: true };
  const count = (value: string | undefined, name: string, min: number) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min) throw new Error(`${name} needs a whole number ≥ ${min}`);
    return parsed;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg];
    const value = () => inline ?? args[++i];
    if (flag === '--runs') options.runs = count(value(), '--runs', 1);
    else if (flag === '--warmup') options.warmup = count(value(), '--warmup', 0);
    else if (flag === '--only') options.only = value() ?? null;
    else if (flag === '--no-derived') options.derived = false;
    else throw new Error(`unknown option ${arg} (known: --runs N, --warmup N, --only=TEXT, --no-derived)`);
  }
  return options;
}

/** The shared test data, looked for as apps/server/test/testdata.ts does; never copied into the repository. */
function findSlidesDir(): string {
  const candidates = [
    process.env.PATHOLOGY_TESTDATA,
    path.resolve(repositoryRoot, '../shared/testdata'),
    '/work/shared/testdata',
  ].filter((candidate): candidate is string => candidate != null && candidate !== '');
  const found = candidates.find((candidate) => existsSync(path.join(candidate, 'slides')));
  if (found == null)
    throw new Error(`Test slides not found (looked in ${candidates.join(', ')}); set PATHOLOGY_TESTDATA`);
  return path.join(found, 'slides');
}

async function vipsCli(args: string[], cwd?: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync('vips', args, { cwd, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim() ?? '';
    throw new Error(`vips ${args.join(' ')} failed: ${stderr || String(error)}`);
  }
}

async function header(file: string, field: string): Promise<string> {
  const { stdout } = await execFileAsync('vipsheader', ['-f', field, file]);
  return stdout.trim();
}

/** The band format as vips names it in options ('uchar', 'ushort', 'char', …); vipsheader prints the C enum. */
async function bandFormat(file: string): Promise<string> {
  const printed = await header(file, 'format');
  return /VIPS_FORMAT_(\w+)/.exec(printed)?.[1]?.toLowerCase() ?? printed;
}

const DERIVED_KINDS = ['aperio', 'tiled', 'stripped'] as const;
const derivedName = (kind: (typeof DERIVED_KINDS)[number]) => `derived-${REPLICATE}x${REPLICATE}-${kind}.tif`;

/** Large slides made from the real Aperio crop at bench time: derived, not from a scanner. */
async function makeDerived(slidesDir: string, dir: string): Promise<Slide[]> {
  const source = path.join(slidesDir, DERIVED_FROM);
  const [aperio, tiled, stripped] = DERIVED_KINDS.map((kind) => path.join(dir, derivedName(kind))) as [
    string,
    string,
    string,
  ];
  const start = performance.now();
  const times = [String(REPLICATE), String(REPLICATE)];
  // Read through tiffload, page 0 keeps the Aperio ImageDescription (with MPP and AppMag), which tiffsave writes
  // back: OpenSlide then reads the result as an Aperio slide, so the OpenSlide path is measured at size.
  const page0 = path.join(dir, 'page0.v');
  await vipsCli(['tiffload', source, page0]);
  await vipsCli([
    'replicate',
    page0,
    `${aperio}[tile,tile-width=240,tile-height=240,pyramid,compression=jpeg,Q=85,bigtiff]`,
    ...times,
  ]);
  await fs.rm(page0);
  // The same pixels without that description: a generic tiled pyramid, which OpenSlide leaves to tiffload.
  await vipsCli([
    'replicate',
    `${source}[rgb]`,
    `${tiled}[tile,tile-width=256,tile-height=256,pyramid,compression=jpeg,Q=85,bigtiff]`,
    ...times,
  ]);
  // Strips (no tiles), JPEG-compressed so the file stays ~230 MB: a large "plain" TIFF, which takes the sharp path.
  await vipsCli(['replicate', `${source}[rgb]`, `${stripped}[compression=jpeg,Q=90]`, ...times]);
  console.log(`Derived slides made in ${((performance.now() - start) / 1000).toFixed(1)} s in ${dir}\n`);
  const origin = `derived, not from a scanner: ${DERIVED_FROM} replicated ${REPLICATE}×${REPLICATE}`;
  return [
    {
      name: path.basename(aperio),
      path: aperio,
      origin: `${origin}, tiled 240 JPEG pyramid with its Aperio description`,
    },
    { name: path.basename(tiled), path: tiled, origin: `${origin}, tiled 256 JPEG pyramid, no vendor description` },
    { name: path.basename(stripped), path: stripped, origin: `${origin}, JPEG strips` },
  ];
}

async function readStructure(file: string): Promise<TiffStructure | null> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    const order = head.toString('latin1', 0, 2);
    return order === 'II' || order === 'MM' ? await readTiffStructure(handle) : null;
  } finally {
    await handle.close();
  }
}

/**
 * The vips command line that writes the same pyramid tiles as our pipeline, layer for layer (our pipeline
 * then packs them into one TIFF; that packing is part of what is measured on our side):
 * - OpenSlide slides: `dzsave src[rgb]`, the alpha channel dropped as the pipeline does;
 * - 8-bit images: `dzsave src` (page 0);
 * - other sample formats (16-bit, signed 8-bit): `vips scale`, which measures min..max and stretches it
 *   linearly to 0..255 uchar, the same two passes (stats, then stretch) the pipeline makes with sharp,
 *   into a .v file that dzsave tiles;
 * - OME z-stacks: per z-plane, 2–3 single-sample channels are each scaled to a .v file, joined with
 *   `bandjoin` and saved; one channel or more than three, channel 0 alone.
 */
async function baselineFor(slide: Slide): Promise<Baseline> {
  const src = slide.path;
  const structure = await readStructure(src);
  const first = structure?.pages[0];
  const ome = first != null && isOmeXml(first.imageDescription) ? parseOmeXml(first.imageDescription) : null;
  const save = (input: string, layer: number): Step => ['dzsave', input, `{out}/layer-${layer}`, ...PYRAMID_FLAGS];
  // Operations that make the 8-bit image (scale, bandjoin) hand it to dzsave through a .v file.
  const via = (step: Step, layer: number): Step[] => [
    [...step, `{tmp}/layer-${layer}.v`],
    save(`{tmp}/layer-${layer}.v`, layer),
  ];
  if (ome != null && first != null) {
    const samplesPerIfd = Math.max(1, first.samplesPerPixel);
    const ifdChannels = Math.max(1, Math.ceil(ome.sizeC / samplesPerIfd));
    const combine = samplesPerIfd === 1 && ifdChannels >= 2 && ifdChannels <= 3;
    const layout = { ...ome, sizeC: ifdChannels };
    const uchar = (await bandFormat(src)) === 'uchar';
    const layers: Step[][] = [];
    for (let z = 0; z < ome.sizeZ; z++) {
      if (!combine) {
        const page = `${src}[page=${omeIfdIndex(layout, z, 0, 0)}]`;
        layers.push(uchar ? [save(page, z)] : via(['scale', page], z));
        continue;
      }
      const steps: Step[] = [];
      const channels: string[] = [];
      for (let c = 0; c < ifdChannels; c++) {
        const page = `${src}[page=${omeIfdIndex(layout, z, c, 0)}]`;
        const file = `{tmp}/z${z}c${c}.v`;
        steps.push(uchar ? ['copy', page, file] : ['scale', page, file]);
        channels.push(file);
      }
      if (channels.length === 2) {
        steps.push(['linear', channels[0]!, `{tmp}/z${z}blank.v`, '0', '0', '--uchar']);
        channels.push(`{tmp}/z${z}blank.v`);
      }
      steps.push(...via(['bandjoin', channels.join(' ')], z));
      layers.push(steps);
    }
    const perPlane = combine
      ? `${ifdChannels} channels ${uchar ? 'copied' : 'scaled'} to .v, bandjoin to the pyramid`
      : 'channel 0';
    return { summary: `OME: ${ome.sizeZ} z-planes, each ${perPlane}`, layers };
  }
  const loader = await header(src, 'vips-loader');
  if (loader === 'openslideload')
    return { summary: 'vips dzsave src[rgb] (OpenSlide)', layers: [[save(`${src}[rgb]`, 0)]] };
  const format = await bandFormat(src);
  if (format === 'uchar') return { summary: `vips dzsave src (${loader}, uchar)`, layers: [[save(src, 0)]] };
  return {
    summary: `vips scale src, dzsave (${loader}, ${format} stretched min..max to uchar)`,
    layers: [via(['scale', src], 0)],
  };
}

async function withTempDir<T>(prefix: string, task: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  try {
    return await task(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * One conversion in a fresh folder. The source is reached through a symlink with a new path each run, as the
 * worker sees a new blob path for each upload: sharp caches open images by path, so converting one path again
 * in the same process is a different case (a reprocess), not what a conversion costs.
 */
async function runOurs(slide: Slide, spawns: SpawnRecord[], keep?: (converted: ConvertedImage) => Promise<void>) {
  return withTempDir('bench-convert-ours-', async (dir) => {
    const sourcePath = path.join(dir, `source${path.extname(slide.path)}`);
    const workDir = path.join(dir, 'work');
    await fs.symlink(slide.path, sourcePath);
    await fs.mkdir(workDir);
    const start = performance.now();
    const result = await traceSpawns(() => convertImage({ sourcePath, workDir, timeoutMs: TIMEOUT_MS }), spawns);
    const ms = performance.now() - start;
    await keep?.(result);
    return { ms, result };
  });
}

async function runVips(baseline: Baseline, keep?: (outDir: string) => Promise<void>): Promise<number> {
  return withTempDir('bench-convert-vips-', async (dir) => {
    const out = path.join(dir, 'out');
    const tmp = path.join(dir, 'tmp');
    await fs.mkdir(out);
    await fs.mkdir(tmp);
    const start = performance.now();
    for (const steps of baseline.layers) {
      for (const step of steps) await vipsCli(step.map((arg) => arg.replaceAll('{out}', out).replaceAll('{tmp}', tmp)));
    }
    const ms = performance.now() - start;
    await keep?.(out);
    return ms;
  });
}

interface PyramidShape {
  width: number;
  height: number;
  pages: string;
  bytes: number;
}

async function pyramidShape(file: string): Promise<PyramidShape> {
  const structure = await readStructure(file);
  const pages = (structure?.pages ?? []).map(
    (page) => `${page.width}x${page.height}/${page.tileWidth ?? 0}/c${page.compression}/s${page.samplesPerPixel}`,
  );
  const [base] = structure?.pages ?? [];
  return {
    width: base?.width ?? 0,
    height: base?.height ?? 0,
    pages: pages.join(' '),
    bytes: (await fs.stat(file)).size,
  };
}

/** The shape of a dzsave Google-layout folder, as the pages of the TIFF it packs into would have it. */
async function tilesShape(folder: string): Promise<PyramidShape> {
  const tiles = folderTiles(folder);
  const size = await googleTilesSize(tiles);
  const levels = await googleLevels(tiles, size, TILE_SIZE);
  const files = (await fs.readdir(folder, { recursive: true, withFileTypes: true })).filter(
    (entry) => entry.isFile() && entry.name.endsWith('.jpg'),
  );
  const samples = jpegComponents(await tiles.file(`${levels[0]!.zoom}/0/0.jpg`));
  const pages = levels.map((level) => `${level.width}x${level.height}/${TILE_SIZE}/c${JPEG_COMPRESSION}/s${samples}`);
  const sizes = await Promise.all(
    files.map(async (entry) => (await fs.stat(path.join(entry.parentPath, entry.name))).size),
  );
  return { ...size, pages: pages.join(' '), bytes: sizes.reduce((sum, bytes) => sum + bytes, 0) };
}

/** Whether both sides wrote pyramids of the same pages (sizes, tiles, compression, bands); sizes in MB. */
function compareLayouts(ours: PyramidShape[], vips: PyramidShape[]): string {
  const mb = (shapes: PyramidShape[]) => (shapes.reduce((sum, shape) => sum + shape.bytes, 0) / 1e6).toFixed(1);
  if (ours.length === 0) return `ours failed; vips ${mb(vips)} MB`;
  const same = ours.length === vips.length && ours.every((shape, i) => shape.pages === vips[i]?.pages);
  const pages = ours[0]?.pages.split(' ').length ?? 0;
  return `${same ? 'same' : 'DIFFERENT'} (${pages} pages; ${mb(ours)} / ${mb(vips)} MB)`;
}

async function measure(slide: Slide, options: Options): Promise<Measured> {
  const baseline = await baselineFor(slide);
  const ours: { ms: number; spawns: SpawnRecord[] }[] = [];
  const vips: number[] = [];
  let converted: ConvertedImage | null = null;
  let error: string | null = null;
  let failedSpawns: SpawnRecord[] = [];
  let oursShape: PyramidShape[] = [];
  let vipsShape: PyramidShape[] = [];
  // A failure of our pipeline is reported in the table; the vips side is still timed for reference.
  const timeOurs = async (timed: boolean, last: boolean) => {
    if (error != null) return;
    const spawns: SpawnRecord[] = [];
    const keep = async (result: ConvertedImage) => {
      oursShape = await Promise.all(result.layers.map((layer) => pyramidShape(layer.pyramidPath)));
    };
    try {
      const run = await runOurs(slide, spawns, last ? keep : undefined);
      converted = run.result;
      if (timed) ours.push({ ms: run.ms, spawns });
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
      failedSpawns = spawns;
    }
  };
  const timeVips = async (timed: boolean, last: boolean) => {
    const keep = async (out: string) => {
      vipsShape = await Promise.all(baseline.layers.map((_, n) => tilesShape(path.join(out, `layer-${n}`))));
    };
    const ms = await runVips(baseline, last ? keep : undefined);
    if (timed) vips.push(ms);
  };
  for (let i = 0; i < options.warmup; i++) {
    await timeOurs(false, false);
    await timeVips(false, false);
  }
  for (let i = 0; i < options.runs; i++) {
    // The last timed run keeps its outputs long enough to compare the pyramids both sides wrote.
    const last = i === options.runs - 1;
    // Alternate which side goes first, so neither always meets a warmer or cooler machine.
    if (i % 2 === 0) {
      await timeOurs(true, last);
      await timeVips(true, last);
    } else {
      await timeVips(true, last);
      await timeOurs(true, last);
    }
    process.stdout.write('.');
  }
  const median = ours.length > 0 ? summarize(ours.map((run) => run.ms)).median : 0;
  const medianRun = [...ours].sort((a, b) => Math.abs(a.ms - median) - Math.abs(b.ms - median))[0];
  const done = converted as ConvertedImage | null;
  const size =
    done != null
      ? { width: done.width, height: done.height, layers: done.layers.length }
      : { width: vipsShape[0]?.width ?? 0, height: vipsShape[0]?.height ?? 0, layers: vipsShape.length };
  return {
    slide,
    converted: error == null ? done : null,
    error,
    size,
    baseline,
    ours: error == null ? ours.map((run) => run.ms) : [],
    vips,
    spawns: error == null ? (medianRun?.spawns ?? []) : failedSpawns,
    layout: compareLayouts(error == null ? oursShape : [], vipsShape),
  };
}

const seconds = (ms: number) => (ms / 1000).toFixed(ms < 10_000 ? 3 : 2);

function gigapixels(size: Measured['size']): number {
  return (size.width * size.height * size.layers) / 1e9;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** ours / vips of the medians; null when our pipeline failed. */
function ratioOf(result: Measured): number | null {
  if (result.error != null || result.ours.length === 0) return null;
  return summarize(result.ours).median / summarize(result.vips).median;
}

function printResults(results: Measured[], options: Options): void {
  console.log(
    `\nResults: wall time of convertImage() in this process against the vips CLI steps run one after another; ` +
      `${options.warmup} warm-up + ${options.runs} timed runs each, alternating which goes first; medians. ` +
      `Gpx = level-0 pixels × layers. Goal: ours / vips ≤ ${GOAL_RATIO}, ≤ ${NDPI_GOAL_RATIO.toFixed(1)} for NDPI files.\n`,
  );
  const rows = results.map((result) => {
    const vips = summarize(result.vips).median;
    const gpx = gigapixels(result.size);
    const ratio = ratioOf(result);
    const ours = ratio == null ? null : summarize(result.ours).median;
    return [
      result.slide.name,
      // First line only, shortened: a format is a short word, but a header parsing slip can make it a paragraph.
      shorten(result.converted?.format.split('\n')[0] ?? '-', 16),
      `${result.size.width}×${result.size.height}`,
      String(result.size.layers),
      gpx.toFixed(4),
      ours == null ? 'error' : seconds(ours),
      seconds(vips),
      ours == null ? '-' : (ours / 1000 / gpx).toFixed(1),
      (vips / 1000 / gpx).toFixed(1),
      ratio == null ? '-' : `${ratio.toFixed(2)}×`,
      ratio == null ? 'FAIL (error)' : `${ratio <= goalOf(result) ? 'PASS' : 'FAIL'} (≤ ${goalOf(result).toFixed(1)}×)`,
    ];
  });
  console.log(
    formatTable(
      [
        { title: 'slide' },
        { title: 'format' },
        { title: 'level 0', align: 'right' },
        { title: 'layers', align: 'right' },
        { title: 'Gpx', align: 'right' },
        { title: 'ours s', align: 'right' },
        { title: 'vips s', align: 'right' },
        { title: 'ours s/Gpx', align: 'right' },
        { title: 'vips s/Gpx', align: 'right' },
        { title: 'ours/vips', align: 'right' },
        { title: 'goal' },
      ],
      rows,
    ),
  );
  const passed = results.filter((result) => (ratioOf(result) ?? Infinity) <= goalOf(result)).length;
  console.log(`\n${passed} PASS, ${results.length - passed} FAIL\n`);

  console.log(
    'Per slide: origin, all timed runs (s), the vips baseline, and whether both wrote the same pyramid pages',
  );
  for (const result of results) {
    console.log(`  ${result.slide.name} — ${result.slide.origin}`);
    if (result.error != null) console.log(`    OUR PIPELINE FAILED: ${result.error}`);
    const format = result.converted?.format;
    if (format != null && /\s/.test(format))
      console.log(`    format is not a single word: ${JSON.stringify(shorten(format, 80))}`);
    if (result.converted != null) {
      const associated = result.converted.associated.map(
        (picture) => `${picture.kind} ${picture.width}×${picture.height}`,
      );
      console.log(`    our outputs: thumbnail, associated images: ${associated.join(', ') || 'none'}`);
    }
    console.log(
      `    runs ours ${result.ours.map(seconds).join(' ') || '-'} | vips ${result.vips.map(seconds).join(' ')}`,
    );
    console.log(`    baseline: ${result.baseline.summary}; ${result.baseline.layers.flat().length} vips process(es)`);
    console.log(`    output pyramids (ours / vips): ${result.layout}`);
  }

  console.log(
    '\nWhere our time goes (the timed run closest to the median, or the failing run): ' +
      'child processes in order, then the rest, spent in this process',
  );
  for (const result of results) {
    const children = result.spawns.reduce((sum, spawn) => sum + spawn.ms, 0);
    const parts = result.spawns.map(
      (spawn) => `${describeSpawn(spawn)} ${seconds(spawn.ms)}${spawn.exit === 0 ? '' : ` (exit ${spawn.exit})`}`,
    );
    if (result.error == null) {
      const rest = Math.max(0, summarize(result.ours).median - children);
      parts.push(`in-process (TIFF parse, sharp, thumbnail) ${seconds(rest)}`);
    }
    console.log(`  ${result.slide.name}: ${parts.join('; ') || 'no child processes'}`);
  }
}

/** A short label for a child of our pipeline: the tool, its operation and the option that tells calls apart. */
function describeSpawn(spawn: SpawnRecord): string {
  const [operation] = spawn.args;
  if (spawn.command === 'vipsheader') return 'vipsheader';
  const associated = spawn.args.indexOf('--associated');
  if (associated >= 0) return `vips ${operation} --associated ${spawn.args[associated + 1]}`;
  return `${spawn.command} ${operation ?? ''}`.trim();
}

/** Converts every shared test slide and the derived ones (large TIFFs, NDPI files) with our pipeline and with the vips CLI. */
export async function run(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const slidesDir = findSlidesDir();
  // The vips CLI baseline runs from this process, which loaded sharp; without this it would lose OpenSlide.
  const sharpVipsHome = restoreVipsHome();
  if (sharpVipsHome != null) {
    console.log(`Loading sharp set VIPSHOME=${sharpVipsHome}; reset for the vips CLI runs (it hides openslideload).\n`);
  }
  const vipsVersion = (await vipsCli(['--version'])).trim();
  console.log(`Conversion: ${vipsVersion}, test slides from ${slidesDir}, temp files under ${os.tmpdir()}\n`);
  await withTempDir('bench-convert-derived-', async (derivedDir) => {
    const real = (await fs.readdir(slidesDir))
      .filter((name) => !name.endsWith('.md'))
      .sort()
      .map((name) => ({ name, path: path.join(slidesDir, name), origin: 'real file, shared test data' }));
    const wanted = (slide: Slide) => options.only == null || slide.name.includes(options.only);
    // The derived slides take a few seconds to make: only when --only can match one of them.
    const derivedWanted =
      options.derived && DERIVED_KINDS.some((kind) => wanted({ ...real[0]!, name: derivedName(kind) }));
    const ndpiWanted = (name: string) => options.derived && wanted({ ...real[0]!, name });
    const slides = [
      ...real.filter(wanted),
      ...(derivedWanted ? (await makeDerived(slidesDir, derivedDir)).filter(wanted) : []),
      ...(NDPI_NAMES.some(ndpiWanted)
        ? await makeNdpiSlides(path.join(slidesDir, DERIVED_FROM), derivedDir, ndpiWanted)
        : []),
    ];
    if (slides.length === 0) throw new Error(`no slide matches --only=${options.only}`);
    const results: Measured[] = [];
    for (const slide of slides) {
      process.stdout.write(`${slide.name} `);
      results.push(await measure(slide, options));
      process.stdout.write('\n');
    }
    const load = os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
    console.log(`load average after measuring: ${load} (other work on the machine widens the spread of the runs)`);
    printResults(results, options);
  });
}
