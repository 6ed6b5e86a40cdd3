import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JPEG_QUALITY } from '../../apps/server/src/imaging/pyramid.ts';
import { freePort } from '../../apps/server/test/free-port.ts';

/** A tile server the benchmark started; `stop` ends it and every process it started. */
export interface Running {
  base: string;
  stop(): Promise<void>;
}

export const IIPSRV = '/usr/lib/iipimage-server/iipsrv.fcgi';
const naiveScript = fileURLToPath(new URL('./naive-sharp-server.ts', import.meta.url));
const floorScript = fileURLToPath(new URL('./node-floor-server.ts', import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (pid: number) => existsSync(`/proc/${pid}`) && !isZombie(pid);

function isZombie(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) state …"; comm may hold spaces, the state follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
  } catch {
    return false;
  }
}

/** Direct children of a process, from /proc (Linux). */
async function childPids(pid: number): Promise<number[]> {
  const text = await fs.readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return text.split(/\s+/).filter(Boolean).map(Number);
}

/** SIGTERM, then SIGKILL after `graceMs` for whatever is still there. Only the given process ids. */
async function terminate(pids: number[], graceMs = 5000): Promise<void> {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + graceMs;
  while (pids.some(alive) && Date.now() < deadline) await sleep(50);
  for (const pid of pids.filter(alive)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * Stops a child and, afterwards, the processes it had started (nginx workers, FastCGI backends). Once only:
 * later calls return the first one's promise, so a recycled process id is never signalled.
 */
function stopper(child: ChildProcess): () => Promise<void> {
  let stopped: Promise<void> | null = null;
  return () => (stopped ??= stopTree(child));
}

async function stopTree(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid == null) return;
  if (child.exitCode != null || child.signalCode != null) return;
  const children = await childPids(pid);
  const exited = child.exitCode == null && child.signalCode == null ? once(child, 'exit') : Promise.resolve();
  await terminate([pid]);
  await exited;
  await terminate(children.filter(alive));
}

function collectOutput(child: ChildProcess): () => string {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return () => output;
}

/** Waits until `url` answers at all (any status), or fails with the process' output. */
async function waitForAnswer(url: string, child: ChildProcess, output: () => string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode != null) throw new Error(`${child.spawnfile} exited (${child.exitCode}):\n${output()}`);
    const response = await fetch(url).catch(() => null);
    if (response != null) {
      await response.arrayBuffer();
      return;
    }
    await sleep(100);
  }
  throw new Error(`${child.spawnfile} did not answer at ${url} within ${timeoutMs} ms:\n${output()}`);
}

/** Directives added to the generated nginx config: in its `server` block (e.g. WebDAV for the upload bench). */
export interface NginxExtra {
  server?: string[];
}

/**
 * nginx (Debian nginx-light) serving `root` as static files: generated config in `dir`, this user, no daemon,
 * no access log, sendfile, one worker per core, keep-alive without a request limit. Its temporary folders (request
 * bodies among them) lie in `dir`.
 */
export async function startNginx(dir: string, root: string, extra: NginxExtra = {}): Promise<Running> {
  await fs.mkdir(dir, { recursive: true });
  const port = await freePort();
  const workers = os.availableParallelism();
  // As root, nginx hands requests to workers running as "nobody", which cannot read a private temp folder.
  const user = process.getuid?.() === 0 ? `user ${os.userInfo().username};\n` : '';
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `  ${name}_temp_path ${path.join(dir, name)};`)
    .join('\n');
  const config = `${user}daemon off;
worker_processes ${workers};
pid ${path.join(dir, 'nginx.pid')};
error_log stderr warn;
events { worker_connections 1024; }
http {
  access_log off;
${temp}
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { image/jpeg jpg; application/json json; }
  server {
    listen 127.0.0.1:${port};
    root ${root};
${(extra.server ?? []).map((line) => `    ${line}\n`).join('')}  }
}
`;
  const file = path.join(dir, 'nginx.conf');
  await fs.writeFile(file, config);
  const child = spawn('nginx', ['-p', dir, '-c', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collectOutput(child);
  const base = `http://127.0.0.1:${port}`;
  await waitForAnswer(`${base}/`, child, output);
  return { base, stop: stopper(child) };
}

/**
 * IIPImage (Debian iipimage-server) as FastCGI behind lighttpd's mod_fastcgi: generated config in `dir`, bound to
 * loopback on a free port, one iipsrv process per core, files under `prefix`. JPEG quality as our pyramid and
 * the static tiles; iipsrv's own tile cache left at its default (10 MB).
 */
export async function startIipImage(dir: string, prefix: string): Promise<Running> {
  await fs.mkdir(dir, { recursive: true });
  const port = await freePort();
  const config = `server.modules = ( "mod_fastcgi" )
server.bind = "127.0.0.1"
server.port = ${port}
server.document-root = "${dir}"
server.errorlog = "${path.join(dir, 'error.log')}"
server.max-keep-alive-requests = 1000000
fastcgi.server = ( "/fcgi-bin/iipsrv.fcgi" => ((
  "socket" => "${path.join(dir, 'iipsrv.sock')}",
  "bin-path" => "${IIPSRV}",
  "max-procs" => ${os.availableParallelism()},
  "check-local" => "disable",
  "bin-environment" => (
    "FILESYSTEM_PREFIX" => "${prefix.endsWith('/') ? prefix : `${prefix}/`}",
    "VERBOSITY" => "0",
    "JPEG_QUALITY" => "${JPEG_QUALITY}",
    "MAX_IMAGE_CACHE_SIZE" => "10",
    "LOGFILE" => "${path.join(dir, 'iipsrv.log')}"
  )
)))
`;
  const file = path.join(dir, 'lighttpd.conf');
  await fs.writeFile(file, config);
  const child = spawn('lighttpd', ['-D', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const collected = collectOutput(child);
  const errorLog = path.join(dir, 'error.log');
  const output = () => `${collected()}${existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''}`;
  const base = `http://127.0.0.1:${port}`;
  await waitForAnswer(`${base}/`, child, output);
  return { base, stop: stopper(child) };
}

/**
 * A bench server script in its own Node process (through tsx), which prints `listening <port>` once it answers: the
 * naive sharp server and the Node floor.
 */
async function startScript(label: string, script: string, args: string[], env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  const deadline = Date.now() + 30_000;
  let port: number | null = null;
  while (port == null) {
    if (child.exitCode != null) throw new Error(`${label} exited (${child.exitCode}):\n${output()}`);
    if (Date.now() > deadline) throw new Error(`${label} did not start:\n${output()}`);
    const match = /listening (\d+)/.exec(output());
    if (match != null) port = Number(match[1]);
    else await sleep(50);
  }
  return { base: `http://127.0.0.1:${port}`, stop: stopper(child) };
}

/** Baseline (a): naive-sharp-server.ts in its own Node process. */
export function startNaiveSharp(pyramid: string, levelWidths: number[], env: NodeJS.ProcessEnv): Promise<Running> {
  return startScript('naive sharp server', naiveScript, [pyramid, levelWidths.join(',')], env);
}

/** The floor: node-floor-server.ts serving nginx's tile files from memory, one process per core as ours. */
export async function startNodeFloor(root: string, env: NodeJS.ProcessEnv): Promise<Running> {
  const processes = String(os.availableParallelism());
  return startScript('Node floor server', floorScript, [root, String(await freePort()), processes], env);
}
