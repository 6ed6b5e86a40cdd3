import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NGINX_FAIL_SECONDS, startTopology, type AppProcess, type Topology } from '../../scale/topology.ts';
import type { SoakOptions } from './options.ts';
import { untilMinute, type Kill, type RunClock, type SoakTarget } from './target.ts';

/** After an API process dies, nginx may answer 5xx until it has taken it out of its turns: no longer than this. */
export const HEALTH_INTERVAL_MS = NGINX_FAIL_SECONDS * 1000;
/** How long the worker kill waits for a worker to be converting. */
const CONVERTING_WAIT_MS = 15_000;
/** The last of each process's output kept for a failure's explanation. */
const OUTPUT_TAIL = 4 * 1024;

const running = (process: AppProcess) =>
  process.server.child.exitCode == null && process.server.child.signalCode == null;

/**
 * `npm run test:scale`'s topology (scale/topology.ts: Debian's PostgreSQL, the S3 server, nginx, 2 API and 2 worker
 * processes) as the soak's target: the clients go through nginx, the monitor reads every process's /metrics.
 */
export class ScaledTarget implements SoakTarget {
  private constructor(
    readonly topology: Topology,
    private readonly root: string,
  ) {}

  static async start(root: string): Promise<ScaledTarget> {
    return new ScaledTarget(await startTopology(root, { apis: 2, workers: 2 }), root);
  }

  get baseUrl(): string {
    return this.topology.url;
  }

  get databaseUrl(): string {
    return this.topology.databaseUrl;
  }

  metricsUrls(): string[] {
    return [...this.topology.apis, ...this.topology.workers]
      .filter(running)
      .map((process) => `http://127.0.0.1:${process.port}/metrics`);
  }

  /**
   * kill -9 of API 1 and of a worker at their minutes, neither started again: the point is that the other API and the
   * other worker carry the load (and the dead worker's jobs, once their lease lapses) on their own. A 5xx is excused
   * only inside nginx's health interval after the API's kill.
   */
  async disrupt(options: SoakOptions, clock: RunClock): Promise<Kill[]> {
    const plan = [
      { minute: options.killApiAt, choose: async () => ({ process: this.topology.apis[0]!, note: '' }) },
      { minute: options.killWorkerAt, choose: () => this.convertingWorker() },
    ]
      .filter((step): step is typeof step & { minute: number } => step.minute != null)
      .sort((a, b) => a.minute - b.minute);
    const kills: Kill[] = [];
    for (const step of plan) {
      await untilMinute(clock, step.minute);
      const { process, note } = await step.choose();
      const group = process.role === 'api' ? this.topology.apis : this.topology.workers;
      const name = `${process.role === 'api' ? 'API' : 'worker'} ${group.indexOf(process) + 1}`;
      const killedAt = Date.now();
      process.server.child.kill('SIGKILL');
      await process.server.exited;
      const excusedUntil = process.role === 'api' ? killedAt + HEALTH_INTERVAL_MS : killedAt;
      clock.recorder.outages.push({ killedAt, readyAt: excusedUntil });
      clock.nextLife();
      kills.push({ process: name, killedAt, readyAt: null, restarted: false, excusedUntil, note });
      clock.print(
        `kill -9 of ${name} at ${((killedAt - clock.startedAt) / 1000).toFixed(0)} s${note ? ` (${note})` : ''}; ` +
          'not started again',
      );
    }
    return kills;
  }

  /**
   * The first worker seen converting (each attempt works in a `convert-<image>-<attempt>-` folder of its DATA_DIR/tmp)
   * within CONVERTING_WAIT_MS, so that the kill leaves a job for the other to take back; worker 1 if none is.
   */
  private async convertingWorker(): Promise<{ process: AppProcess; note: string }> {
    const deadline = Date.now() + CONVERTING_WAIT_MS;
    do {
      for (const worker of this.topology.workers.filter(running)) {
        const entries = await fs.readdir(path.join(worker.dataDir, 'tmp')).catch(() => [] as string[]);
        const converting = entries.filter((entry) => entry.startsWith('convert-')).length;
        if (converting > 0)
          return { process: worker, note: `${converting} conversion${converting === 1 ? '' : 's'} under way` };
      }
      await sleep(100);
    } while (Date.now() < deadline);
    return { process: this.topology.workers[0]!, note: `no conversion under way for ${CONVERTING_WAIT_MS / 1000} s` };
  }

  /** The last of every process's output, to explain a failure. */
  output(): string {
    return [...this.topology.apis, ...this.topology.workers]
      .map((process) => `--- ${process.role} on ${process.port}:\n${process.server.output().slice(-OUTPUT_TAIL)}`)
      .join('\n');
  }

  /** The last of nginx's error log (startNginx's `error_log`): why it answered 502 or 503, if it did. */
  async nginxErrors(): Promise<string> {
    const log = await fs.readFile(path.join(this.root, 'nginx', 'error.log'), 'utf8').catch(() => '');
    return log.slice(-OUTPUT_TAIL);
  }

  stop(): Promise<void> {
    return this.topology.stop();
  }
}
