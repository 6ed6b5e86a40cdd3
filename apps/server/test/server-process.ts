import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServerBuild, SERVER_MAIN } from '../build.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
/** The built server's entry, `apps/server/dist/main.js`. */
export const builtServerMain = path.join(root, SERVER_MAIN);
// Every test, bench and topology that starts servers runs the built server, built here when its sources changed.
await ensureServerBuild(root);

/** Debian's jemalloc, which `npm start` preloads (scripts/start.sh says why), when this machine has it. */
const jemalloc = readdirSync('/usr/lib', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => path.join('/usr/lib', entry.name, 'libjemalloc.so.2'))
  .find((file) => existsSync(file));

export interface ServerProcess {
  child: ChildProcess;
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/** Runs the built server (`dist/main.js`) as `npm start` does (on jemalloc where installed), with its own environment. */
export function startServerProcess(env: Record<string, string>, args: string[] = []): ServerProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', builtServerMain, ...args], {
    // Tests with time limits convert beside other test files: at the default niceness their conversions would starve.
    env: {
      ...process.env,
      ...(jemalloc ? { LD_PRELOAD: jemalloc } : {}),
      LOG_LEVEL: 'info',
      WEB_DIST: '/nonexistent',
      CONVERSION_NICENESS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    child,
    exited,
    output: () => output,
    async stop() {
      if (child.exitCode == null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * Polls until the URL answers 200, or fails with the server's output after the timeout. Often: tests that restart
 * servers many times (tus-kill: 21 starts) would otherwise wait half a poll for nothing after each.
 */
export async function waitForHealthy(baseUrl: string, server: ServerProcess, timeoutMs = 120_000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode != null) throw new Error(`server exited (${server.child.exitCode}):\n${server.output()}`);
    const response = await fetch(`${baseUrl}/api/v1/health`).catch(() => null);
    if (response?.status === 200) return response.json();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`server not healthy after ${timeoutMs} ms:\n${server.output()}`);
}
