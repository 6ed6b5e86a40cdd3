import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../apps/server/test/free-port.ts';
import { parseSoakArgs } from './soak/options.ts';
import { finalReport } from './soak/report.ts';
import { runSoak } from './soak/run-soak.ts';
import { SoakServer } from './soak/server.ts';

export const description =
  'Many people at once against `npm start` (embedded PostgreSQL, its own group and cases): viewers at a human pace, ' +
  'tus uploads of real slides to their conversions, detection imports, drawings and notes; latency per kind, ' +
  'event-loop delay, RSS and PostgreSQL connections every 30 s, lost writes, PASS/FAIL per goal (--minutes 10, ' +
  '--viewers 50, --kill-at <minute> kills the server with kill -9 and starts it again)';

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

export async function run(args: string[]): Promise<void> {
  const options = parseSoakArgs(args);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-soak-'));
  await fs.chmod(dataDir, 0o755);
  // The README's command, as people start the server; again the same after a kill.
  const server = new SoakServer(
    { command: 'npm', args: ['start'], cwd: repositoryRoot, env: { SEED_DEMO: 'false', LOG_LEVEL: 'warn' } },
    dataDir,
    await freePort(),
    await freePort(),
  );
  try {
    console.log(`Starting \`npm start\` on ${dataDir} (the first start builds what changed)…`);
    await server.launch();
    const result = await runSoak(server, options);
    const report = finalReport(result);
    console.log(report.text);
    if (report.verdicts.some((row) => row.verdict === 'FAIL')) process.exitCode = 1;
  } catch (error) {
    console.error(`${String(error)}\nThe server's last output:\n${server.output()}`);
    throw error;
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
