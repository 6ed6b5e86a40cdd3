import fs from 'node:fs/promises';
import zlib from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { useInstallations } from './installation.ts';
import { tokenForProcess } from './process-token.ts';
import { waitForHealthy } from './server-process.ts';
import { queryOnce } from './sql.ts';

const { fresh } = useInstallations();
const SIDE = 50_000;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid 8-bit grey PNG of SIDE×SIDE black pixels: 2.5 GB of pixels in about 2.4 MB of file. */
async function decompressionBomb(): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIDE, 0);
  header.writeUInt32BE(SIDE, 4);
  header.writeUInt8(8, 8);
  const deflate = zlib.createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on('data', (data: Buffer) => compressed.push(data));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(SIDE + 1);
  for (let y = 0; y < SIDE; y++)
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  deflate.end();
  await ended;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', Buffer.concat(compressed)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Peak resident memory of a process since its counter was last reset, in MiB. */
async function peakMiB(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

describe('a decompression bomb', () => {
  it('is refused from its header with -100, and the server’s memory stays where it was', async () => {
    const { baseUrl, databaseUrl, start } = await fresh();
    const server = start();
    await waitForHealthy(baseUrl, server);
    const bomb = await decompressionBomb();
    expect(bomb.length).toBeLessThan(3 * 1024 * 1024);
    // The demo slides convert after start; measure from when they are done.
    await vi.waitFor(
      async () => {
        const busy = await queryOnce(databaseUrl, `SELECT 1 FROM images WHERE status IN ('uploaded', 'processing')`);
        expect(busy).toHaveLength(0);
      },
      { timeout: 120_000, interval: 500 },
    );
    const [target] = await queryOnce<{ id: string }>(
      databaseUrl,
      `SELECT c.id FROM cases c JOIN memberships m ON m.organization_id = c.owner_organization_id
       JOIN accounts a ON a.id = m.account_id WHERE a.email = 'member@demo.test' AND m.role = 'member' LIMIT 1`,
    );
    const pid = server.child.pid!;
    // Writing 5 to clear_refs resets the peak (VmHWM) to the current resident size.
    await fs.writeFile(`/proc/${pid}/clear_refs`, '5');
    const before = await peakMiB(pid);

    const token = await tokenForProcess(databaseUrl, baseUrl, 'member@demo.test');
    const query_ = new URLSearchParams({ caseId: target!.id, filename: 'bomb.png' });
    const response = await fetch(`${baseUrl}/api/v1/images?${query_.toString()}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: bomb,
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    await vi.waitFor(
      async () => {
        const [image] = await queryOnce<{ status: string; process_error_code: number; process_error_message: string }>(
          databaseUrl,
          `SELECT status, process_error_code, process_error_message FROM images WHERE id = $1`,
          [id],
        );
        expect(image).toMatchObject({ status: 'process_failed', process_error_code: -100 });
        expect(image!.process_error_message).toContain(`${SIDE}×${SIDE}`);
      },
      { timeout: 60_000, interval: 250 },
    );
    expect((await peakMiB(pid)) - before).toBeLessThan(100);
    expect(await server.stop()).toBe(0);
  }, 300_000);
});
