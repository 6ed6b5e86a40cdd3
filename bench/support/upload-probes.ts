import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';

const TICKS_PER_SECOND = 100;

/** User and system CPU seconds a process has used so far, from /proc/<pid>/stat (Linux). */
export async function processCpuSeconds(pid: number): Promise<{ user: number; system: number }> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND };
}

/** CPU seconds (user, system) that the api process and the bench's own process (the client) spend on one transfer. */
export class CpuMeter {
  #server = { user: 0, system: 0 };
  #client = process.cpuUsage();
  #machine = machineTicks();
  constructor(private readonly serverPid: number) {}

  async start(): Promise<void> {
    this.#server = await processCpuSeconds(this.serverPid);
    this.#client = process.cpuUsage();
    this.#machine = machineTicks();
  }

  /** Seconds of CPU since start: the server's, the client's, and the whole machine's busy time (all processes). */
  async stop(): Promise<{ server: number; client: number; machineBusy: number }> {
    const server = await processCpuSeconds(this.serverPid);
    const client = process.cpuUsage(this.#client);
    const machine = machineTicks();
    return {
      server: server.user - this.#server.user + server.system - this.#server.system,
      client: (client.user + client.system) / 1e6,
      machineBusy: (machine.busy - this.#machine.busy) / 1000,
    };
  }
}

/** Milliseconds every core has spent busy since boot (os.cpus times are in ms). */
function machineTicks(): { busy: number } {
  let busy = 0;
  for (const cpu of os.cpus()) busy += cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.irq;
  return { busy };
}

/**
 * An HTTP server in a process of its own that reads every request body and throws it away: what the bench's client
 * costs alone, without the api's storage path. Answers 201 with `{ "id": "sink" }`.
 */
const SINK = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"sink"}'));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

export async function startNullSink(): Promise<{ base: string; child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['-e', SINK], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  return {
    base: `http://127.0.0.1:${line.toString().trim()}`,
    child,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
