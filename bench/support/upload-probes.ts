import fs from 'node:fs/promises';
import os from 'node:os';

const TICKS_PER_SECOND = 100;

/** User plus system CPU seconds a process has used so far, from /proc/<pid>/stat (Linux); 0 once it is gone. */
async function processCpuSeconds(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat == null) return 0;
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Processes started by `pid`, their children and so on, whose command name matches `name` (Linux /proc). */
export async function descendants(name: RegExp, pid = process.pid): Promise<number[]> {
  const found: number[] = [];
  const tasks = await fs.readdir(`/proc/${pid}/task`).catch(() => []);
  for (const task of tasks) {
    const text = await fs.readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
    for (const child of text.split(/\s+/).filter(Boolean).map(Number)) {
      const comm = await fs.readFile(`/proc/${child}/comm`, 'utf8').catch(() => '');
      if (name.test(comm.trim())) found.push(child);
      found.push(...(await descendants(name, child)));
    }
  }
  return found;
}

/**
 * CPU seconds that some processes (given anew at start and stop, so that processes started meanwhile count from 0)
 * spend on one transfer, and the whole machine's busy seconds (every process on it).
 */
export class CpuMeter {
  #start = new Map<number, number>();
  #machine = machineTicks();
  constructor(private readonly pids: () => Promise<number[]>) {}

  async start(): Promise<void> {
    this.#start = new Map();
    for (const pid of await this.pids()) this.#start.set(pid, await processCpuSeconds(pid));
    this.#machine = machineTicks();
  }

  async stop(): Promise<{ processes: number; machineBusy: number }> {
    let processes = 0;
    for (const pid of await this.pids()) processes += (await processCpuSeconds(pid)) - (this.#start.get(pid) ?? 0);
    return { processes, machineBusy: (machineTicks().busy - this.#machine.busy) / 1000 };
  }
}

/** Milliseconds every core has spent busy since boot (os.cpus times are in ms). */
function machineTicks(): { busy: number } {
  let busy = 0;
  for (const cpu of os.cpus()) busy += cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.irq;
  return { busy };
}
