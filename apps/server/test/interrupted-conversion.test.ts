import { describe, expect, it, vi } from 'vitest';
import { useInstallations } from './installation.ts';
import { waitForHealthy } from './server-process.ts';
import { queryOnce } from './sql.ts';

const { fresh } = useInstallations();

async function statuses(databaseUrl: string): Promise<Map<string, string>> {
  const rows = await queryOnce<{ id: string; status: string }>(databaseUrl, 'SELECT id, status FROM images');
  return new Map(rows.map((row) => [row.id, row.status]));
}

describe('a conversion running when the server is killed', () => {
  it('is taken up again after the restart by its lapsed heartbeat, and the image ends available within 2 minutes', async () => {
    const { baseUrl, databaseUrl, start } = await fresh();
    const first = start();
    await waitForHealthy(baseUrl, first);
    // The demo slides convert right after start: kill the server while one of them is being converted.
    let interrupted: string[] = [];
    await vi.waitFor(
      async () => {
        const now = await statuses(databaseUrl);
        interrupted = [...now].filter(([, status]) => status === 'processing').map(([id]) => id);
        expect(interrupted.length).toBeGreaterThan(0);
      },
      { timeout: 60_000, interval: 20 },
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = await statuses(databaseUrl);
    const stuck = interrupted.filter((id) => atKill.get(id) === 'processing');
    expect(stuck.length).toBeGreaterThan(0);

    const restartedAt = Date.now();
    const second = start();
    await waitForHealthy(baseUrl, second);
    await vi.waitFor(
      async () => {
        const now = await statuses(databaseUrl);
        expect(stuck.map((id) => now.get(id))).toEqual(stuck.map(() => 'available'));
      },
      { timeout: 120_000, interval: 1_000 },
    );
    expect(Date.now() - restartedAt).toBeLessThan(120_000);
    expect(await second.stop()).toBe(0);
  }, 300_000);
});
