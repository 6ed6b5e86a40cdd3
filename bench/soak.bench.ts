import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../apps/server/test/free-port.ts';
import { parseSoakArgs, type SoakOptions } from './soak/options.ts';
import { finalReport } from './soak/report.ts';
import { runSoak } from './soak/run-soak.ts';
import { ScaledTarget } from './soak/scaled.ts';
import { SoakServer } from './soak/server.ts';
import type { SoakTarget } from './soak/target.ts';

export const description =
  'Many people at once against `npm start` (embedded PostgreSQL, its own group and cases): viewers at a human pace, ' +
  'tus uploads of real slides to their conversions, detection imports, drawings and notes; latency per kind, ' +
  'event-loop delay, RSS and PostgreSQL connections every 30 s, lost writes, PASS/FAIL per goal (--minutes 10, ' +
  '--viewers 50, --kill-at <minute> kills the server with kill -9 and starts it again; --topology scaled runs it ' +
  "3 minutes through nginx against test:scale's 2 API and 2 worker processes, killing API 1 at minute 1 and worker 1 " +
  'at minute 2)';

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

/** The target the options name, started, with what explains a failure and what ends it. */
async function startTarget(
  options: SoakOptions,
  root: string,
): Promise<{ target: SoakTarget; output(): string; stop(): Promise<void> }> {
  if (options.topology === 'scaled') {
    console.log(`Starting the scaled topology in ${root} (PostgreSQL, S3 server, nginx, 2 API, 2 workers)…`);
    const scaled = await ScaledTarget.start(root);
    const stop = async () => {
      const errors = await scaled.nginxErrors();
      if (errors !== '') console.log(`\nThe last of nginx's error log:\n${errors}`);
      await scaled.stop();
    };
    return { target: scaled, output: () => scaled.output(), stop };
  }
  // The README's command, as people start the server; again the same after a kill.
  const server = new SoakServer(
    { command: 'npm', args: ['start'], cwd: repositoryRoot, env: { SEED_DEMO: 'false', LOG_LEVEL: 'warn' } },
    root,
    await freePort(),
    await freePort(),
  );
  console.log(`Starting \`npm start\` on ${root} (the first start builds what changed)…`);
  const stop = () => server.stop();
  try {
    await server.launch();
    console.log(`The server runs on ${await server.allocator()}.`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { target: server, output: () => server.output(), stop };
}

export async function run(args: string[]): Promise<void> {
  const options = parseSoakArgs(args);
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-soak-'));
  await fs.chmod(root, 0o755);
  let started: Awaited<ReturnType<typeof startTarget>> | undefined;
  try {
    started = await startTarget(options, root);
    const result = await runSoak(started.target, options);
    const report = finalReport(result);
    console.log(report.text);
    if (report.verdicts.some((row) => row.verdict === 'FAIL')) process.exitCode = 1;
  } catch (error) {
    if (started != null) console.error(`${String(error)}\nThe server's last output:\n${started.output()}`);
    throw error;
  } finally {
    await started?.stop();
    await fs.rm(root, { recursive: true, force: true });
  }
}
