import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatLines, machineInfo } from './support/machine.ts';

/** What a `bench/<name>.bench.ts` file exports. */
export interface Benchmark {
  /** One line for the list of benchmarks. */
  description: string;
  /** Runs the benchmark with the arguments after its name, printing its own figures. */
  run(args: string[]): Promise<void>;
}

const SUFFIX = '.bench.ts';
const benchDir = path.dirname(fileURLToPath(import.meta.url));

function isBenchmark(value: unknown): value is Benchmark {
  if (typeof value !== 'object' || value == null) return false;
  const candidate = value as Partial<Record<keyof Benchmark, unknown>>;
  return typeof candidate.description === 'string' && typeof candidate.run === 'function';
}

async function load(name: string): Promise<Benchmark> {
  const loaded = (await import(pathToFileURL(path.join(benchDir, `${name}${SUFFIX}`)).href)) as unknown;
  if (!isBenchmark(loaded)) throw new Error(`bench/${name}${SUFFIX} must export description and run(args)`);
  return loaded;
}

async function list(names: readonly string[]): Promise<void> {
  console.log('Benchmarks (npm run bench -- <name> [options]):');
  for (const name of names) console.log(`  ${name.padEnd(12)} ${(await load(name)).description}`);
}

/** `npm run bench -- <name> [options]` runs bench/<name>.bench.ts; without a name, lists them. */
async function main(): Promise<void> {
  const names = (await fs.readdir(benchDir))
    .filter((file) => file.endsWith(SUFFIX))
    .map((file) => file.slice(0, -SUFFIX.length))
    .sort();
  const [name, ...args] = process.argv.slice(2);
  console.log(`Machine\n${formatLines(await machineInfo())}\n`);
  if (name == null) return list(names);
  if (!names.includes(name)) {
    console.error(`Unknown benchmark "${name}".`);
    await list(names);
    process.exitCode = 1;
    return;
  }
  await (await load(name)).run(args);
}

await main();
