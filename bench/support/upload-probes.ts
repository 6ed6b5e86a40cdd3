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

/** CPU seconds (user + system) that the api process spends on one transfer, and the whole machine's busy seconds. */
export class CpuMeter {
  #server = { user: 0, system: 0 };
  #machine = machineTicks();
  constructor(private readonly serverPid: number) {}

  async start(): Promise<void> {
    this.#server = await processCpuSeconds(this.serverPid);
    this.#machine = machineTicks();
  }

  /** Seconds of CPU since start: the server's, and the whole machine's busy time (all processes). */
  async stop(): Promise<{ server: number; machineBusy: number }> {
    const server = await processCpuSeconds(this.serverPid);
    const machine = machineTicks();
    return {
      server: server.user - this.#server.user + server.system - this.#server.system,
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
