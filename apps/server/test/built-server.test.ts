import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOrCreateIdpKeys } from '../src/auth/idp/keys.ts';
import { writeBuiltinModels } from '../src/modules/predictions/model-registry.ts';
import { freePort } from './free-port.ts';
import { builtServerMain } from './server-process.ts';
import { createTestDatabase } from './test-database.ts';

const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-built-'));
afterAll(() => fs.rm(scratch, { recursive: true, force: true }));

/** Runs the built server as the tests and the image do, until it exits; its output. */
async function runBuilt(
  nodeArgs: string[],
  serverArgs: string[],
  env: Record<string, string | undefined>,
): Promise<string> {
  const child = spawn(process.execPath, ['--enable-source-maps', ...nodeArgs, builtServerMain, ...serverArgs], { env });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await once(child, 'exit');
  return output;
}

/**
 * Packages a start must not load: sharp, ONNX Runtime, the Skia canvas, the HTML sanitiser, the SMTP client, the DICOM
 * parser, the zip writer and reader, the ONNX encoder (onnx-proto, protobufjs) and the API documentation (swagger, its
 * yaml), which only some requests and jobs need; jose, loaded with the first token to verify; Fastify's default
 * compilers (Ajv and fast-json-stringify's, which loads Ajv too), replaced by zod's; @opentelemetry/api, which only prom-client's exemplars use.
 */
const NOT_AT_START =
  /node_modules\/(sharp|onnxruntime-node|@napi-rs\/canvas|sanitize-html|nodemailer|dicom-parser|yazl|yauzl|onnx-proto|protobufjs|@fastify\/swagger[^/]*|yaml|jose|ajv|ajv-formats|@fastify\/ajv-compiler|@fastify\/fast-json-stringify-compiler|@opentelemetry\/api)\//g;

/**
 * Records every module a process loads into `file`: ES modules through a loader hook, CommonJS ones as they compile
 * (a package's own `require`s pass no loader hook).
 */
async function moduleRecorder(file: string): Promise<string> {
  const hook = `import fs from 'node:fs';
export async function load(url, context, next) {
  fs.appendFileSync(${JSON.stringify(file)}, url + '\\n');
  return next(url, context);
}`;
  const preload = path.join(scratch, `record-${path.basename(file)}.mjs`);
  await fs.writeFile(
    preload,
    `import fs from 'node:fs';
import Module, { register } from 'node:module';
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
  fs.appendFileSync(${JSON.stringify(file)}, filename + '\\n');
  return compile.apply(this, arguments);
};
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});
`,
  );
  return preload;
}

/** Starts the built server until `started` says so; the modules it loaded by then, one a line. */
async function startUntil(
  serverArgs: string[],
  env: Record<string, string>,
  started: (port: number, output: string) => Promise<boolean>,
): Promise<string> {
  const record = path.join(scratch, `loaded-${serverArgs.join('-')}.txt`);
  const preload = await moduleRecorder(record);
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', '--import', preload, builtServerMain, ...serverArgs], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  try {
    while (!(await started(port, output))) {
      if (child.exitCode != null) throw new Error(`the server exited:\n${output}`);
      await sleep(50);
    }
    return await fs.readFile(record, 'utf8');
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

describe('the built server', () => {
  it("keeps every module beside its thread pools' worker files, where a pool made in a chunk looks for them", async () => {
    const dist = path.dirname(builtServerMain);
    const modules = (await fs.readdir(dist, { recursive: true })).filter((file) => file.endsWith('.js'));
    const entries = ['main.js', 'feature-parse.worker.js', 'outline-paint.worker.js', 'drawing-body.worker.js'];
    expect(modules.filter((file) => path.dirname(file) !== '.')).toEqual([]);
    expect(modules).toEqual(expect.arrayContaining(entries));
    // The HTTP side and the job handlers, which make the pools, are chunks loaded on demand.
    expect(modules.filter((file) => !entries.includes(file)).length).toBeGreaterThan(0);
  });

  it('names the TypeScript source lines in its stack traces', async () => {
    // A DATA_DIR that is a file: the start fails at its first step, inside startAll, with the error's stack.
    const file = path.join(scratch, 'not-a-folder');
    await fs.writeFile(file, '');
    const output = await runBuilt([], [], { ...process.env, DATA_DIR: file });
    expect(output).toContain('Pathology slides could not start');
    expect(output).toMatch(/at async startAll \(.*apps\/server\/src\/main\.ts:\d+:\d+\)/);
  }, 120_000);

  it('loads none of the packages only some requests and jobs need, nor those a start can do without, until ready', async () => {
    const database = await createTestDatabase();
    try {
      // An installation's first start makes the built-in provider's keys (jose) and encodes the built-in models
      // (onnx-proto); the later ones, as here, find them.
      await loadOrCreateIdpKeys(database.db);
      const dataDir = await fs.mkdtemp(path.join(scratch, 'data-'));
      await writeBuiltinModels(path.join(dataDir, 'builtin-models'));
      const env = { DATABASE_URL: database.url, DATA_DIR: dataDir };
      const api = await startUntil(['--role', 'api'], env, async (port) => {
        const response = await fetch(`http://127.0.0.1:${port}/api/v1/health/ready`).catch(() => null);
        return response?.status === 200;
      });
      const worker = await startUntil(['--role', 'worker'], env, async (_port, output) =>
        output.includes('"worker started"'),
      );
      for (const loaded of [api, worker]) {
        // pg (CommonJS) and drizzle-orm (ES modules), which every start loads, show that the record sees both kinds.
        expect(loaded).toMatch(/node_modules\/pg\//);
        expect(loaded).toMatch(/node_modules\/drizzle-orm\//);
        expect(loaded.match(NOT_AT_START) ?? []).toEqual([]);
      }
      expect(api).toMatch(/node_modules\/fastify\//);
    } finally {
      await database.close();
    }
  }, 120_000);
});
