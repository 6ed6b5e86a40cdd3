import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** One start of a server command, from its spawn to its first ready answer, and its memory at rest. */
export interface StartSample {
  /** Spawn to the first 200 from /api/v1/health/ready, in ms. */
  readyMs: number;
  /** From 'starting embedded PostgreSQL' to 'database migrated' in the server's log (the cluster's start and the
   * migrations' check), in ms; null without an embedded PostgreSQL. */
  postgresMs: number | null;
  /** Resident memory of the server process (the DATA_DIR lock's owner, or the only node process) at rest, in MiB. */
  rssMiB: number;
}

export interface StartCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  port: number;
  /** Where the server writes its lock (its pid), when it runs on an embedded PostgreSQL. */
  dataDir: string;
}

const POLL_MS = 20;
const REST_MS = 3_000;
const TIMEOUT_MS = 600_000;

interface LogLine {
  time?: number;
  msg?: string;
}

function logTime(output: string, message: string): number | null {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const parsed = JSON.parse(line) as LogLine;
      if (parsed.msg === message && typeof parsed.time === 'number') return parsed.time;
    } catch {
      // a line of another program's output
    }
  }
  return null;
}

async function rssMiB(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb / 1024;
}

/** The process that runs the server: npm, sh and tsx may stand between it and the spawned command. */
async function serverPid(dataDir: string, spawned: number): Promise<number> {
  const lock = await fs.readFile(path.join(dataDir, 'server.lock'), 'utf8').catch(() => null);
  if (lock != null) return (JSON.parse(lock) as { pid: number }).pid;
  // No lock (an external PostgreSQL): the deepest node process under the spawned one.
  let pid = spawned;
  for (;;) {
    const children = (await fs.readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => ''))
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    const next = children.at(-1);
    if (next == null) return pid;
    pid = next;
  }
}

/** Starts the command, waits for ready, measures, then stops the server with SIGTERM and waits for every process to end. */
export async function measureStart(start: StartCommand): Promise<StartSample> {
  const began = Date.now();
  const child = spawn(start.command, start.args, {
    cwd: start.cwd,
    env: { ...process.env, ...start.env, PORT: String(start.port), DATA_DIR: start.dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    let readyAt: number | null = null;
    while (readyAt == null) {
      if (child.exitCode != null) throw new Error(`${start.command} ${start.args.join(' ')} exited:\n${output}`);
      if (Date.now() - began > TIMEOUT_MS) throw new Error(`not ready within ${TIMEOUT_MS} ms:\n${output}`);
      const response = await fetch(`http://127.0.0.1:${start.port}/api/v1/health/ready`).catch(() => null);
      if (response?.status === 200) readyAt = Date.now();
      else await sleep(POLL_MS);
    }
    await sleep(REST_MS);
    const pid = await serverPid(start.dataDir, child.pid!);
    const rss = await rssMiB(pid);
    const pgStart = logTime(output, 'starting embedded PostgreSQL');
    const migrated = logTime(output, 'database migrated');
    process.kill(pid, 'SIGTERM');
    await Promise.race([exited, sleep(60_000)]);
    return {
      readyMs: readyAt - began,
      postgresMs: pgStart != null && migrated != null ? migrated - pgStart : null,
      rssMiB: rss,
    };
  } finally {
    if (child.exitCode == null && child.signalCode == null) {
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    }
  }
}
