import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

it('npm start runs the built server in its own one node process on jemalloc, building nothing when the stamps are current', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-start-'));
  // Every node process started below writes its pid here, whoever starts it, and whether it runs on jemalloc
  // (.ci/run installs Debian's libjemalloc2, as npm start does when it can).
  const preload = path.join(dir, 'record-pid.cjs');
  const pids = path.join(dir, 'pids');
  await fs.writeFile(
    preload,
    `const fs = require('node:fs');
    const allocator = fs.readFileSync('/proc/self/maps', 'utf8').includes('libjemalloc') ? 'jemalloc' : 'other';
    fs.appendFileSync(${JSON.stringify(pids)}, process.pid + ' ' + allocator + '\\n');`,
  );
  const env: Record<string, string | undefined> = { ...process.env, NODE_OPTIONS: `--require ${preload}` };
  // A worker without DATABASE_URL: the server's own configuration check ends it once it is loaded (no web build).
  delete env.DATABASE_URL;
  // package.json's start script: the shell execs node, so the server keeps the pid it was started with.
  const child = spawn('sh', ['scripts/start.sh', '--role', 'worker'], { cwd: root, env });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(output).toContain('Env. variable is required: DATABASE_URL');
  expect(code).toBe(1);
  expect(output).not.toContain('Server built');
  expect((await fs.readFile(pids, 'utf8')).trim().split('\n')).toEqual([`${child.pid} jemalloc`]);
  await fs.rm(dir, { recursive: true, force: true });
}, 120_000);
