import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { freePort } from '../apps/server/test/free-port.ts';
import { queryOnce } from '../apps/server/test/sql.ts';
import { measureStart, type StartCommand, type StartSample } from './support/startup-probe.ts';
import { summarize } from './support/stats.ts';
import { formatTable } from './support/table.ts';

export const description =
  'Start-up of `npm start` on an existing data folder (spawn to /api/v1/health/ready, embedded PostgreSQL apart), ' +
  'of `--role api` on a running PostgreSQL through npm and as the image starts it (node on the built server), with ' +
  'the server process RSS at rest (--runs N, --ref <commit> to compare with another commit, run back to back)';

/** The goals (issue 43): the server's own start without PostgreSQL, and an API process at rest. */
const GOAL_OWN_START_S = 1.5;
const GOAL_RSS_MIB = 150;

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

interface Options {
  runs: number;
  ref: string | null;
}

function parseArgs(args: string[]): Options {
  const options: Options = { runs: 5, ref: null };
  for (let i = 0; i < args.length; i += 1) {
    const [arg = '', inline] = args[i]!.split('=', 2);
    const value = () => inline ?? args[++i] ?? '';
    if (arg === '--runs') options.runs = Number(value());
    else if (arg === '--ref') options.ref = value();
    else throw new Error(`unknown option ${arg} (known: --runs N, --ref <commit>)`);
  }
  if (!(Number.isInteger(options.runs) && options.runs > 0)) throw new Error('--runs takes a positive whole number');
  return options;
}

/** A tree to start: this one, or a commit checked out beside it with its own dependencies. */
interface Tree {
  label: string;
  dir: string;
  remove?: () => void;
}

function checkoutRef(ref: string): Tree {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: repositoryRoot, encoding: 'utf8' }).trim();
  const dir = path.join(os.tmpdir(), `pathology-startup-${commit}`);
  spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: repositoryRoot, stdio: 'ignore' });
  execFileSync('git', ['worktree', 'add', '--detach', dir, commit], { cwd: repositoryRoot, stdio: 'inherit' });
  console.log(`Installing the dependencies of ${commit} in ${dir}…`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, stdio: 'inherit' });
  return {
    label: commit,
    dir,
    remove: () => execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: repositoryRoot }),
  };
}

/**
 * What is started in a tree: the README's commands, through npm as people run them, and the built server as the
 * Dockerfile's ENTRYPOINT and operators start it, on which the server's own start is judged (npm adds its own).
 */
interface Mode {
  name: string;
  command(tree: Tree, env: Environment): StartCommand;
  /** Whether the tree has what the mode starts (a commit before the server's build has no dist/main.js). */
  available?(tree: Tree): boolean;
}

interface Environment {
  dataDir: string;
  port: number;
  embeddedPgPort: number;
  databaseUrl: string;
}

const BUILT_MAIN = 'apps/server/dist/main.js';
const OWN_START_MODE = `node --enable-source-maps ${BUILT_MAIN} --role api (running PostgreSQL, as the image starts it)`;

const MODES: Mode[] = [
  {
    name: 'npm start (all roles, embedded PostgreSQL)',
    command: (tree, env) => ({
      command: 'npm',
      args: ['start'],
      cwd: tree.dir,
      env: { EMBEDDED_PG_PORT: String(env.embeddedPgPort) },
      port: env.port,
      dataDir: env.dataDir,
    }),
  },
  {
    name: 'npm start -w apps/server -- --role api (running PostgreSQL)',
    command: (tree, env) => ({
      command: 'npm',
      args: ['start', '--workspace', 'apps/server', '--', '--role', 'api'],
      cwd: tree.dir,
      env: { DATABASE_URL: env.databaseUrl },
      port: env.port,
      dataDir: `${env.dataDir}-api`,
    }),
  },
  {
    name: OWN_START_MODE,
    command: (tree, env) => ({
      command: process.execPath,
      args: ['--enable-source-maps', BUILT_MAIN, '--role', 'api'],
      cwd: tree.dir,
      env: { DATABASE_URL: env.databaseUrl },
      port: env.port,
      dataDir: `${env.dataDir}-api`,
    }),
    // Built by the npm modes' first start, which runs before it.
    available: (tree) => existsSync(path.join(tree.dir, BUILT_MAIN)),
  },
];

const seconds = (ms: number) => (ms / 1000).toFixed(2);

function describeSamples(samples: StartSample[]): string[] {
  const ready = summarize(samples.map((sample) => sample.readyMs));
  const postgres = samples.every((sample) => sample.postgresMs != null)
    ? summarize(samples.map((sample) => sample.postgresMs!))
    : null;
  const own = summarize(samples.map((sample) => sample.readyMs - (sample.postgresMs ?? 0)));
  const rss = summarize(samples.map((sample) => sample.rssMiB));
  return [
    `${seconds(ready.median)} (${seconds(Math.min(...samples.map((sample) => sample.readyMs)))}–${seconds(ready.max)})`,
    postgres == null ? '–' : seconds(postgres.median),
    seconds(own.median),
    `${rss.median.toFixed(0)} (max ${rss.max.toFixed(0)})`,
  ];
}

export async function run(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const trees: Tree[] = [];
  if (options.ref != null) trees.push(checkoutRef(options.ref));
  trees.push({ label: 'this tree', dir: repositoryRoot });
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-startup-'));
  await fs.chmod(scratch, 0o755);
  const pg = await startEmbeddedPostgres({
    dataDir: path.join(scratch, 'external-pg'),
    port: await freePort(),
    database: 'bench',
  });
  try {
    const environments = new Map<Tree, Environment>();
    for (const [i, tree] of trees.entries()) {
      const database = `startup_${i}`;
      await queryOnce(pg.url, `CREATE DATABASE ${database}`);
      environments.set(tree, {
        dataDir: path.join(scratch, `data-${i}`),
        port: await freePort(),
        embeddedPgPort: await freePort(),
        databaseUrl: pg.url.replace(/\/bench$/, `/${database}`),
      });
    }
    // The first start of each mode builds what the tree builds, creates the cluster, migrates and seeds: not measured.
    for (const tree of trees)
      for (const mode of MODES) {
        if (mode.available?.(tree) === false) {
          console.log(`Skipping ${tree.label}: ${mode.name} (not in this tree)`);
          continue;
        }
        console.log(`Preparing ${tree.label}: ${mode.name}…`);
        await measureStart(mode.command(tree, environments.get(tree)!));
      }
    const samples = new Map<string, StartSample[]>();
    for (let runIndex = 0; runIndex < options.runs; runIndex += 1)
      for (const mode of MODES)
        for (const tree of trees) {
          if (mode.available?.(tree) === false) continue;
          const sample = await measureStart(mode.command(tree, environments.get(tree)!));
          const key = `${mode.name}\0${tree.label}`;
          samples.set(key, [...(samples.get(key) ?? []), sample]);
          console.log(
            `  run ${runIndex + 1} ${tree.label.padEnd(9)} ${mode.name}: ready ${seconds(sample.readyMs)} s, ` +
              `PostgreSQL ${sample.postgresMs == null ? '–' : seconds(sample.postgresMs)} s, RSS ${sample.rssMiB.toFixed(0)} MiB`,
          );
        }
    for (const mode of MODES) {
      console.log(`\n${mode.name}, ${options.runs} run(s), median:`);
      console.log(
        formatTable(
          [
            { title: 'tree' },
            { title: 'ready s (min–max)', align: 'right' },
            { title: 'PostgreSQL s', align: 'right' },
            { title: 'server own s', align: 'right' },
            { title: 'RSS at rest MiB', align: 'right' },
          ],
          trees.map((tree) => {
            const measured = samples.get(`${mode.name}\0${tree.label}`);
            return [tree.label, ...(measured ? describeSamples(measured) : ['not in this tree', '–', '–', '–'])];
          }),
        ),
      );
    }
    console.log(
      `\nready = spawn of the command to the first 200 from /api/v1/health/ready (polled every 20 ms); PostgreSQL = ` +
        `'starting embedded PostgreSQL' to 'database migrated' in the server's log; server own = ready − PostgreSQL; ` +
        `RSS of the server process 3 s after ready.`,
    );
    const own = samples.get(`${OWN_START_MODE}\0this tree`)!;
    const ownS = summarize(own.map((sample) => sample.readyMs)).median / 1000;
    const rss = summarize(own.map((sample) => sample.rssMiB)).median;
    console.log(
      `Goals, judged on the line of the built server started as the image starts it (\`node --enable-source-maps ` +
        `${BUILT_MAIN} --role api\`; the npm lines add npm's own start): server own < ${GOAL_OWN_START_S} s: ` +
        `${ownS.toFixed(2)} s ${ownS < GOAL_OWN_START_S ? 'met' : 'NOT met'}; RSS at rest < ${GOAL_RSS_MIB} MiB per ` +
        `API process: ${rss.toFixed(0)} MiB ${rss < GOAL_RSS_MIB ? 'met' : 'NOT met'}.`,
    );
  } finally {
    await pg.stop();
    await fs.rm(scratch, { recursive: true, force: true });
    for (const tree of trees) tree.remove?.();
  }
}
