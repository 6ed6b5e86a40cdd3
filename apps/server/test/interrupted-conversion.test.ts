import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { useInstallations } from './installation.ts';
import { tokenForProcess } from './process-token.ts';
import { waitForHealthy } from './server-process.ts';
import { queryOnce } from './sql.ts';
import { slidePath } from './testdata.ts';

const { fresh } = useInstallations();

async function statuses(databaseUrl: string): Promise<Map<string, string>> {
  const rows = await queryOnce<{ id: string; status: string }>(databaseUrl, 'SELECT id, status FROM images');
  return new Map(rows.map((row) => [row.id, row.status]));
}

/** The partial files of blob writes (`<key>.~<hex>`) under the store's folder. */
async function temporaries(blobsDir: string): Promise<string[]> {
  const files = await fs.readdir(blobsDir, { recursive: true });
  return files.filter((file) => /\.~[0-9a-f]{16}$/.test(file));
}

/** Conversion work folders in DATA_DIR/tmp. */
async function scratch(dataDir: string): Promise<string[]> {
  const entries = await fs.readdir(path.join(dataDir, 'tmp')).catch(() => []);
  return entries.filter((name) => name.startsWith('convert-'));
}

/** Processes working in DATA_DIR/tmp (the conversion tools, whose cwd is their attempt's folder). */
async function toolsIn(dataDir: string): Promise<number[]> {
  const scratchDir = path.join(dataDir, 'tmp');
  const pids = (await fs.readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const cwds = await Promise.all(pids.map((pid) => fs.readlink(`/proc/${pid}/cwd`).catch(() => '')));
  return pids.filter((_, i) => cwds[i]!.startsWith(scratchDir + path.sep)).map(Number);
}

/** A raw `POST images` that sends half of a slide and then waits, as a slow client would. */
async function halfUpload(baseUrl: string, databaseUrl: string): Promise<http.ClientRequest> {
  const [target] = await queryOnce<{ id: string }>(
    databaseUrl,
    `SELECT c.id FROM cases c JOIN memberships m ON m.organization_id = c.owner_organization_id
     JOIN accounts a ON a.id = m.account_id WHERE a.email = 'member@demo.test' AND m.role = 'member' LIMIT 1`,
  );
  const token = await tokenForProcess(databaseUrl, baseUrl, 'member@demo.test');
  const slide = await fs.readFile(slidePath('CMU-1-Small-Region.svs'));
  const query = new URLSearchParams({ caseId: target!.id, filename: 'half-sent.svs' });
  const request = http.request(`${baseUrl}/api/v1/images?${query.toString()}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/octet-stream',
      'content-length': String(slide.length),
    },
  });
  request.on('error', () => undefined);
  request.write(slide.subarray(0, slide.length / 2));
  return request;
}

/**
 * Converts one demo slide again, once the demo's own conversion is over: the demo converts its slide once, within
 * seconds of the start, mostly before a test could catch it running.
 */
async function reprocessDemoSlide(baseUrl: string, databaseUrl: string): Promise<void> {
  await vi.waitFor(
    async () =>
      expect(await queryOnce(databaseUrl, `SELECT 1 FROM images WHERE status IN ('uploaded', 'processing')`)).toEqual(
        [],
      ),
    { timeout: 120_000, interval: 250 },
  );
  const [slide] = await queryOnce<{ id: string }>(
    databaseUrl,
    `SELECT i.id FROM images i JOIN cases c ON c.id = i.case_id
     JOIN memberships m ON m.organization_id = c.owner_organization_id
     JOIN accounts a ON a.id = m.account_id WHERE a.email = 'member@demo.test' AND m.role = 'member' LIMIT 1`,
  );
  const token = await tokenForProcess(databaseUrl, baseUrl, 'member@demo.test');
  const response = await fetch(`${baseUrl}/api/v1/images/${slide!.id}/reprocess`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(202);
}

describe('a conversion running when the server is killed', () => {
  it('is taken up again after the restart by its lapsed heartbeat, the image ends available within 2 minutes, and neither its scratch nor a cut upload’s partial file stays', async () => {
    // A lapsed heartbeat is noticed within seconds instead of the default 45, which the test would only sit through.
    const { baseUrl, databaseUrl, env, start } = await fresh({ JOB_LEASE_SECONDS: '10' });
    const blobsDir = path.join(env.DATA_DIR, 'blobs');
    const first = start();
    await waitForHealthy(baseUrl, first, 300_000);
    const upload = await halfUpload(baseUrl, databaseUrl);
    await vi.waitFor(async () => expect(await temporaries(blobsDir)).toHaveLength(1), { timeout: 30_000 });
    // Kill the server while a demo slide is being converted.
    await reprocessDemoSlide(baseUrl, databaseUrl);
    let interrupted: string[] = [];
    await vi.waitFor(
      async () => {
        const now = await statuses(databaseUrl);
        interrupted = [...now].filter(([, status]) => status === 'processing').map(([id]) => id);
        expect(interrupted.length).toBeGreaterThan(0);
        expect(await scratch(env.DATA_DIR)).not.toEqual([]);
        expect(await toolsIn(env.DATA_DIR)).not.toEqual([]);
      },
      { timeout: 60_000, interval: 20 },
    );
    first.child.kill('SIGKILL');
    await first.exited;
    upload.destroy();
    // The conversion's vips dies with it rather than writing on beside the attempt that takes the job back.
    await vi.waitFor(async () => expect(await toolsIn(env.DATA_DIR)).toEqual([]), { timeout: 2_000, interval: 50 });
    const leftScratch = await scratch(env.DATA_DIR);
    const leftPartial = await temporaries(blobsDir);
    expect(leftScratch.length).toBeGreaterThan(0);
    expect(leftPartial.length).toBeGreaterThan(0);
    const atKill = await statuses(databaseUrl);
    const stuck = interrupted.filter((id) => atKill.get(id) === 'processing');
    expect(stuck.length).toBeGreaterThan(0);

    const restartedAt = Date.now();
    const second = start();
    await waitForHealthy(baseUrl, second, 300_000);
    await vi.waitFor(
      async () => {
        const now = await statuses(databaseUrl);
        expect(stuck.map((id) => now.get(id))).toEqual(stuck.map(() => 'available'));
      },
      { timeout: 120_000, interval: 1_000 },
    );
    expect(Date.now() - restartedAt).toBeLessThan(120_000);
    // Swept when the jobs were taken back, and once a partial file's writer would have touched it.
    await vi.waitFor(
      async () => {
        expect((await scratch(env.DATA_DIR)).filter((name) => leftScratch.includes(name))).toEqual([]);
        expect(await temporaries(blobsDir)).toEqual([]);
      },
      { timeout: 60_000, interval: 1_000 },
    );
    expect(await second.stop()).toBe(0);
  }, 900_000);
});
