// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../apps/server/src/storage/s3rver.d.ts" />
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../apps/server/test/free-port.ts';
import { startS3Server } from '../apps/server/test/s3-server.ts';
import { startServerProcess, type ServerProcess } from '../apps/server/test/server-process.ts';

const run = promisify(execFile);

/** Debian's PostgreSQL server programs (package postgresql), newest version installed. */
async function postgresBin(): Promise<string> {
  const versions = await fs.readdir('/usr/lib/postgresql').catch(() => [] as string[]);
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest == null) throw new Error('PostgreSQL server not installed: apt-get install -y postgresql');
  return `/usr/lib/postgresql/${newest}/bin`;
}

/** Runs a PostgreSQL program as the owner of the cluster: initdb and the server refuse to run as root. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export interface Part {
  stop(): Promise<void>;
}

/** A PostgreSQL cluster of its own on a free loopback port, trusting local connections; `url` names a fresh database. */
export async function startPostgres(dir: string): Promise<Part & { url: string }> {
  const bin = await postgresBin();
  const dataDir = path.join(dir, 'pgdata');
  await fs.mkdir(dataDir, { recursive: true });
  if (process.getuid?.() === 0) await run('chown', ['-R', 'postgres:postgres', dir]);
  await run(...asPostgres(`${bin}/initdb`, ['-D', dataDir, '-U', 'pathology', '--auth=trust', '-E', 'UTF8']));
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off`;
  await run(
    ...asPostgres(`${bin}/pg_ctl`, ['-D', dataDir, '-o', options, '-l', path.join(dir, 'pg.log'), '-w', 'start']),
  );
  const admin = new pg.Client({ connectionString: `postgres://pathology@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE pathology');
  await admin.end();
  return {
    url: `postgres://pathology@127.0.0.1:${port}/pathology`,
    stop: async () => {
      await run(...asPostgres(`${bin}/pg_ctl`, ['-D', dataDir, '-m', 'immediate', 'stop'])).catch(() => undefined);
    },
  };
}

/** The S3-compatible server the storage tests use, with the bucket `slides`. */
export async function startS3(dir: string): Promise<Part & { env: Record<string, string> }> {
  const server = await startS3Server(dir, ['slides']);
  return { env: server.env('slides', 'pathology'), stop: () => server.stop() };
}

/** nginx's health interval here: how long it skips an API process after one failure before trying it again. */
export const NGINX_FAIL_SECONDS = 2;

/**
 * nginx balancing the API processes round-robin, as deploy/nginx.conf does: a process that refuses
 * connections or answers 502/503 is skipped for `failSeconds` and the request, bodies included
 * (nginx buffers them), goes to the next one.
 */
export async function startNginx(
  dir: string,
  upstreams: number[],
  port: number,
  failSeconds = NGINX_FAIL_SECONDS,
): Promise<Part & { url: string }> {
  await fs.mkdir(dir, { recursive: true });
  const user = process.getuid?.() === 0 ? `user ${os.userInfo().username};\n` : '';
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `  ${name}_temp_path ${path.join(dir, name)};`)
    .join('\n');
  const servers = upstreams
    .map((upstream) => `    server 127.0.0.1:${upstream} max_fails=1 fail_timeout=${failSeconds}s;`)
    .join('\n');
  const config = `${user}daemon off;
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
${temp}
  client_max_body_size 0;
  upstream api {
${servers}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://api;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_connect_timeout 2s;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout http_502 http_503 non_idempotent;
      proxy_next_upstream_tries 3;
      # Which API process answered: the test checks that one sign-in's steps reached both.
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
  const file = path.join(dir, 'nginx.conf');
  await fs.writeFile(file, config);
  const child = spawn('nginx', ['-p', dir, '-c', file], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(url).catch(() => null)) != null, 10_000, 'nginx did not start');
  return { url, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode != null || child.signalCode != null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(message);
}

/** One process of the app (`--role api` or `worker`) with a DATA_DIR of its own, as on a machine of its own. */
export interface AppProcess {
  role: 'api' | 'worker';
  port: number;
  dataDir: string;
  server: ServerProcess;
}

export interface TopologyOptions {
  apis: number;
  workers: number;
  /** Settings for every app process (e.g. HTTP_PROCESSES, WORKER_CONCURRENCY). */
  env?: Record<string, string>;
}

export interface Topology extends Part {
  /** nginx: the address users reach the app at. */
  url: string;
  databaseUrl: string;
  apis: AppProcess[];
  workers: AppProcess[];
}

/**
 * Debian's PostgreSQL, the S3 server, `apis` API processes behind nginx and `workers` worker
 * processes, all on this machine and ports of their own; `stop` ends them all and removes `root`.
 */
export async function startTopology(root: string, options: TopologyOptions): Promise<Topology> {
  const parts: Part[] = [];
  const stop = async () => {
    for (const part of parts.splice(0).reverse()) await part.stop().catch(() => undefined);
    await fs.rm(root, { recursive: true, force: true });
  };
  try {
    const postgres = await startPostgres(path.join(root, 'postgres'));
    parts.push(postgres);
    const s3 = await startS3(path.join(root, 's3'));
    parts.push(s3);
    const apiPorts = await Promise.all(Array.from({ length: options.apis }, () => freePort()));
    const nginxPort = await freePort();
    const url = `http://127.0.0.1:${nginxPort}`;
    const base = {
      ...s3.env,
      DATABASE_URL: postgres.url,
      PUBLIC_URL: url,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'loopback',
      JOB_LEASE_SECONDS: '6',
      SHUTDOWN_GRACE_SECONDS: '2',
      ...options.env,
    };
    const start = async (role: 'api' | 'worker', index: number, port: number): Promise<AppProcess> => {
      const dataDir = path.join(root, `${role}-${index}`);
      await fs.mkdir(dataDir, { recursive: true });
      const env = {
        ...base,
        DATA_DIR: dataDir,
        PORT: String(port),
        ...(role === 'worker' ? { OPS_PORT: String(port) } : {}),
      };
      const server = startServerProcess(env, ['--role', role]);
      parts.push({ stop: async () => void (await server.stop()) });
      return { role, port, dataDir, server };
    };
    // The first API migrates the empty database; the others wait on its advisory lock.
    const apis = await Promise.all(apiPorts.map((port, index) => start('api', index, port)));
    const workers = await Promise.all(
      Array.from({ length: options.workers }, async (_, index) => start('worker', index, await freePort())),
    );
    for (const process of [...apis, ...workers]) await waitReady(process);
    parts.push(await startNginx(path.join(root, 'nginx'), apiPorts, nginxPort));
    return { url, databaseUrl: postgres.url, apis, workers, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitReady(process: AppProcess): Promise<void> {
  const url = `http://127.0.0.1:${process.port}/api/v1/health/ready`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (process.server.child.exitCode != null) throw new Error(`${process.role} exited:\n${process.server.output()}`);
    if ((await fetch(url).catch(() => null))?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${process.role} not ready:\n${process.server.output()}`);
}
