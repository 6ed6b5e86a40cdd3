import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtServerMain } from './server-process.ts';

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

describe('the built server', () => {
  it('names the TypeScript source lines in its stack traces', async () => {
    // A DATA_DIR that is a file: the start fails at its first step, inside startAll, with the error's stack.
    const file = path.join(scratch, 'not-a-folder');
    await fs.writeFile(file, '');
    const output = await runBuilt([], [], { ...process.env, DATA_DIR: file });
    expect(output).toContain('Pathology slides could not start');
    expect(output).toMatch(/at async startAll \(.*apps\/server\/src\/main\.ts:\d+:\d+\)/);
  }, 120_000);

  it('loads sharp, ONNX Runtime, the Skia canvas, the HTML sanitiser, the SMTP client, the DICOM parser, the zip writer and reader, the ONNX encoder and the API documentation only when first needed', async () => {
    // Every package loaded through `require`, as the process exits (a worker without DATABASE_URL: once all is loaded).
    const preload = path.join(scratch, 'loaded.cjs');
    await fs.writeFile(
      preload,
      `process.on('exit', () => console.log('loaded: ' + Object.keys(require.cache).filter((f) => /onnxruntime-node|@napi-rs[\\\\/]canvas|sanitize-html|nodemailer|sharp|dicom-parser|yazl|yauzl|onnx-proto|protobufjs|@fastify[\\\\/]swagger|node_modules[\\\\/]yaml[\\\\/]|node_modules[\\\\/]pg[\\\\/]/.test(f)).join(' ')));`,
    );
    const env: Record<string, string | undefined> = { ...process.env };
    delete env.DATABASE_URL;
    const output = await runBuilt(['--require', preload], ['--role', 'worker'], env);
    expect(output).toContain('Env. variable is required: DATABASE_URL');
    // pg, which every start needs, shows that the check sees the packages a start loads.
    expect(output).toMatch(/loaded: .*node_modules\/pg\//);
    expect(output).not.toMatch(
      /loaded: .*(sharp|onnxruntime-node|@napi-rs|sanitize-html|nodemailer|dicom-parser|yazl|yauzl|onnx-proto|protobufjs|@fastify\/swagger|node_modules\/yaml\/)/,
    );
  }, 120_000);
});
