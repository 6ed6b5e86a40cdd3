import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SoakOptions } from './options.ts';
import { untilMinute, type Kill, type RunClock, type SoakTarget } from './target.ts';

/** How the server is started: the README's command, or the built server it runs. */
export interface StartCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

const READY_POLL_MS = 100;
const START_TIMEOUT_MS = 600_000;
const KEPT_OUTPUT = 64 * 1024;

/**
 * One server on its own data folder and embedded PostgreSQL, started again after a kill -9 with the same command.
 * Each start runs in a process group of its own, so the npm and shell processes between us and the server go too.
 */
export class SoakServer implements SoakTarget {
  readonly baseUrl: string;
  readonly databaseUrl: string;
  #children: ChildProcess[] = [];
  #output = '';

  constructor(
    private readonly start: StartCommand,
    readonly dataDir: string,
    readonly port: number,
    readonly postgresPort: number,
  ) {
    this.baseUrl = `http://localhost:${port}`;
    this.databaseUrl = `postgres://postgres:postgres@localhost:${postgresPort}/pathology`;
  }

  metricsUrls(): string[] {
    return [`${this.baseUrl}/metrics`];
  }

  /** kill -9 at `--kill-at` and the README's command again; the downtime lasts to its first ready answer. */
  async disrupt(options: SoakOptions, clock: RunClock): Promise<Kill[]> {
    if (options.killAt == null) return [];
    await untilMinute(clock, options.killAt);
    const outage = { killedAt: await this.kill(), readyAt: null as number | null };
    clock.recorder.outages.push(outage);
    clock.print(
      `kill -9 of the server at ${((outage.killedAt - clock.startedAt) / 1000).toFixed(0)} s; starting it again…`,
    );
    outage.readyAt = await this.launch();
    clock.nextLife();
    clock.print(`ready again after ${((outage.readyAt - outage.killedAt) / 1000).toFixed(1)} s of downtime`);
    return [
      {
        process: 'the server',
        killedAt: outage.killedAt,
        readyAt: outage.readyAt,
        restarted: true,
        excusedUntil: outage.readyAt,
        note: '',
      },
    ];
  }

  /** The last of the server's output, to explain a failure. */
  output(): string {
    return this.#output;
  }

  /** Starts the command and waits for the first 200 of /api/v1/health/ready; returns when it came. */
  async launch(): Promise<number> {
    const child = spawn(this.start.command, this.start.args, {
      cwd: this.start.cwd,
      env: {
        ...process.env,
        ...this.start.env,
        PORT: String(this.port),
        DATA_DIR: this.dataDir,
        EMBEDDED_PG_PORT: String(this.postgresPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const keep = (chunk: Buffer) => (this.#output = (this.#output + chunk.toString()).slice(-KEPT_OUTPUT));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    this.#children.push(child);
    return this.waitReady(child);
  }

  async waitReady(child: ChildProcess): Promise<number> {
    const began = Date.now();
    for (;;) {
      if (child.exitCode != null || child.signalCode != null) {
        throw new Error(`the server exited (${child.exitCode ?? child.signalCode}):\n${this.#output}`);
      }
      if (Date.now() - began > START_TIMEOUT_MS)
        throw new Error(`not ready in ${START_TIMEOUT_MS} ms:\n${this.#output}`);
      const response = await fetch(`${this.baseUrl}/api/v1/health/ready`, { signal: AbortSignal.timeout(5_000) })
        .then(async (answer) => (await answer.arrayBuffer(), answer))
        .catch(() => null);
      if (response?.status === 200) return Date.now();
      await sleep(READY_POLL_MS);
    }
  }

  /** The server process itself (the data folder lock's owner), not npm or a shell before it. */
  async pid(): Promise<number> {
    const lock = JSON.parse(await fs.readFile(path.join(this.dataDir, 'server.lock'), 'utf8')) as { pid: number };
    return lock.pid;
  }

  /** The server process's memory allocator, from the libraries it maps: `npm start` preloads jemalloc where installed. */
  async allocator(): Promise<string> {
    const maps = await fs.readFile(`/proc/${await this.pid()}/maps`, 'utf8').catch(() => '');
    return maps.includes('libjemalloc') ? 'jemalloc' : 'the C library\'s malloc';
  }

  /** kill -9 of the server process; returns when it was sent. Its PostgreSQL is left running, as after a crash. */
  async kill(): Promise<number> {
    const pid = await this.pid();
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    return killedAt;
  }

  /** SIGTERM to the server (it stops its PostgreSQL), then anything left of every start. */
  async stop(): Promise<void> {
    const live = this.#children.at(-1);
    if (live != null && live.exitCode == null && live.signalCode == null) {
      const exited = new Promise((resolve) => live.once('exit', resolve));
      await this.pid()
        .then((pid) => process.kill(pid, 'SIGTERM'))
        .catch(() => undefined);
      await Promise.race([exited, sleep(60_000)]);
    }
    for (const child of this.#children) {
      if (child.exitCode == null && child.signalCode == null) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // the group is gone already
        }
      }
    }
  }
}
