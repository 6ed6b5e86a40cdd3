import { spawn, spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { ImagingTimeoutError } from './errors.ts';

export interface RunToolOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  cwd?: string;
  /** Runs the tool at this niceness (through `nice`, so every thread it starts inherits it). */
  niceness?: number;
  /** Bytes streamed to the tool's standard input (it reads them as `stdin`); without, its input is closed. */
  stdin?: FileRange;
  /** Variables set for the tool over this process's environment. */
  environment?: Record<string, string>;
}

/** `length` bytes of the file at `path` from byte `start`. */
export interface FileRange {
  path: string;
  start: number;
  length: number;
}

export interface ToolResult {
  stdout: string;
  stderr: string;
  /** null when the process died from a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

/** Process groups of the tools running now: killing a group ends the helpers a tool started too, which its death signal misses. */
const runningGroups = new Set<number>();

/** Kills every tool still running: a process ending on shutdown leaves no conversion behind. */
export function killRunningTools(): void {
  for (const pid of runningGroups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  runningGroups.clear();
}

// vips can print a lot for a broken file; keep memory bounded while retaining the useful head.
const MAX_OUTPUT = 1024 * 1024;
/** Reads of the file fed to a tool: fewer, larger writes into its pipe. */
const READ_CHUNK = 1024 * 1024;

/**
 * Loading sharp sets VIPSHOME to its bundled libvips; the system `vips` would then look for its
 * modules (openslideload lives in one) under that prefix and silently lose OpenSlide.
 */
function childEnvironment(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment = { ...process.env };
  delete environment.VIPSHOME;
  return { ...environment, ...overrides };
}

/**
 * A detached tool leads a session of its own, and where the kernel groups sessions for scheduling (autogroup, on by
 * default) a thread's niceness counts only within its session: the session's niceness is what weighs against the
 * server's threads. Best effort: without autogroup the file is absent and `nice` alone does it.
 */
function lowerSessionPriority(pid: number, niceness: number): void {
  void writeFile(`/proc/${pid}/autogroup`, String(niceness)).catch(() => undefined);
}

let deathSignalWrapper: string[] | undefined;

/**
 * `setpriv --pdeathsig KILL` (util-linux) has the kernel kill the tool once this process dies, however it dies: after
 * a `kill -9` a detached vips would otherwise keep writing for a minute, beside the attempt that took its job back.
 * Node cannot ask for that signal itself. Without setpriv (another system) tools run unwrapped.
 */
function deathSignalPrefix(): string[] {
  deathSignalWrapper ??=
    spawnSync('setpriv', ['--pdeathsig', 'KILL', 'true'], { stdio: 'ignore' }).status === 0
      ? ['setpriv', '--pdeathsig', 'KILL']
      : [];
  return deathSignalWrapper;
}

/**
 * Runs a command with an argument array (never a shell) in its own process group, so a timeout
 * or abort kills vips and any helper it spawned, and ended with this process (see deathSignalPrefix).
 * Resolves with the exit code; rejects only on timeout, abort or failure to start.
 */
export function runTool(command: string, args: readonly string[], options: RunToolOptions): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    options.signal?.throwIfAborted();
    const niced = options.niceness ? ['nice', '-n', String(options.niceness), command, ...args] : [command, ...args];
    const argv = [...deathSignalPrefix(), ...niced];
    const child = spawn(argv[0]!, argv.slice(1), {
      detached: true,
      cwd: options.cwd,
      env: childEnvironment(options.environment),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const group = child.pid;
    if (group !== undefined) runningGroups.add(group);
    if (group !== undefined && options.niceness) lowerSessionPriority(group, options.niceness);
    let stdout = '';
    let stderr = '';
    let stopped: Error | null = null;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += chunk;
    });

    const killGroup = (reason: Error) => {
      stopped ??= reason;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group already exited between the timer firing and the kill.
      }
    };
    const timer = setTimeout(
      () => killGroup(new ImagingTimeoutError(`${command} exceeded its time limit of ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const onAbort = () =>
      killGroup(options.signal?.reason instanceof Error ? options.signal.reason : new Error('Aborted'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // A tool that stops reading (it failed, or read all it needs) breaks the pipe: its exit code says why.
    child.stdin.on('error', () => undefined);
    const input = options.stdin ? feed(options.stdin, child.stdin, killGroup) : null;
    if (!input) child.stdin.end();

    const finish = () => {
      if (group !== undefined) runningGroups.delete(group);
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      input?.destroy();
    };
    child.on('error', (error) => {
      finish();
      reject(error);
    });
    child.on('close', (code, signal) => {
      finish();
      if (stopped) reject(stopped);
      else resolve({ stdout, stderr, exitCode: code, signal });
    });
  });
}

/** Streams `range` into a tool's standard input; a failure to read the file ends the tool. */
function feed(range: FileRange, stdin: Writable, fail: (error: Error) => void) {
  const input = createReadStream(range.path, {
    start: range.start,
    end: range.start + range.length - 1,
    highWaterMark: READ_CHUNK,
  });
  input.on('error', fail);
  input.pipe(stdin);
  return input;
}
