import childProcess, { type ChildProcess } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

/** One child process started while a trace was recording: its command line and wall time. */
export interface SpawnRecord {
  command: string;
  args: string[];
  /** The environment it was given, when not this process's own. */
  env: NodeJS.ProcessEnv | null;
  ms: number;
  /** Exit code, or the signal that ended it. */
  exit: number | string | null;
}

let recording: SpawnRecord[] | null = null;
let installed = false;

/**
 * Replaces `child_process.spawn` with a wrapper that times every child started while `traceSpawns`
 * runs, without touching the code under test: `syncBuiltinESMExports` carries the replacement to
 * modules that imported `spawn` by name, whenever they were loaded.
 */
function install(): void {
  if (installed) return;
  installed = true;
  const original = childProcess.spawn;
  const traced = function (this: unknown, ...params: unknown[]): ChildProcess {
    const child = (original as (...args: unknown[]) => ChildProcess).apply(this, params);
    const records = recording;
    if (records != null) {
      const [command, args, options] = params as [unknown, unknown, { env?: NodeJS.ProcessEnv } | undefined];
      const start = performance.now();
      const record: SpawnRecord = {
        command: String(command),
        args: Array.isArray(args) ? args.map(String) : [],
        env: options?.env ?? null,
        ms: 0,
        exit: null,
      };
      records.push(record);
      child.once('close', (code: number | null, signal: string | null) => {
        record.ms = performance.now() - start;
        record.exit = code ?? signal;
      });
    }
    return child;
  };
  childProcess.spawn = traced as typeof childProcess.spawn;
  syncBuiltinESMExports();
}

/**
 * Runs `task`, appending the children it spawns to `spawns` (which keeps them when the task throws);
 * only one trace may run at a time.
 */
export async function traceSpawns<T>(task: () => Promise<T>, spawns: SpawnRecord[]): Promise<T> {
  install();
  if (recording != null) throw new Error('traceSpawns does not nest');
  recording = spawns;
  try {
    return await task();
  } finally {
    recording = null;
  }
}
