import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import yazl from 'yazl';
import { factories } from '#test/factories.ts';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { images } from '../../db/schema/index.ts';
import { tilingDone, watchConversionProgress } from './conversion-progress.ts';

describe('conversion progress', () => {
  let database: TestDatabase;
  let workDir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'conversion-progress-'));
  });
  afterAll(async () => {
    await database.close();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  /**
   * Watches a 2220 × 2967 conversion in `dir` until its row shows 20 of the full level's 30 tiles and the smallest
   * level's one tile written: (6,586,740 × 20/30 + 103,138) / 8,748,928 of the pixels, of the tiling's 90 %.
   */
  async function expectTwentyOneTilesReported(imageId: string, dir: string) {
    const watcher = watchConversionProgress(database.db, imageId, { width: 2220, height: 2967 }, dir);
    try {
      await vi.waitFor(
        async () => {
          const [row] = await database.db.select().from(images).where(eq(images.id, imageId));
          expect(row?.conversionProgress).toBe(Math.floor((90 * (6_586_740 * (20 / 30) + 103_138)) / 8_748_928));
        },
        { timeout: 5000 },
      );
    } finally {
      watcher.stop();
    }
  }

  it('weighs each level’s tiles written by the level’s area', () => {
    const size = { width: 2220, height: 2967 };
    expect(tilingDone(size, new Map())).toBe(0);
    // Zoom 3 is the full level (5 × 6 tiles), zoom 0 the smallest (one tile): the full level is 3/4 of the pixels.
    expect(tilingDone(size, new Map([[3, 30]]))).toBeCloseTo(6_586_740 / 8_748_928, 6);
    expect(tilingDone(size, new Map([[0, 1]]))).toBeCloseTo(103_138 / 8_748_928, 6);
    expect(
      tilingDone(
        size,
        new Map([
          [0, 1],
          [1, 4],
          [2, 9],
          [3, 30],
        ]),
      ),
    ).toBe(1);
  });

  it('reports the share of the pyramid’s tiling done so far on the image row', async () => {
    const make = factories(database.db);
    const caseId = await make.case({ ownerOrganizationId: await make.organization() });
    const imageId = await make.image(caseId, { status: 'processing', conversionProgress: 0 });
    // 2220 × 2967: 5 × 6 + 3 × 3 + 2 × 2 + 1 tiles in its four levels; 20 of the full level's and the smallest one's
    // written, in dzsave's z/y/x.jpg layout: (6,586,740 × 20/30 + 103,138) / 8,748,928 of the pixels.
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 4; y++) {
        await fs.mkdir(path.join(workDir, 'tiles-0', '3', String(y)), { recursive: true });
        await fs.writeFile(path.join(workDir, 'tiles-0', '3', String(y), `${x}.jpg`), '');
      }
    }
    await fs.mkdir(path.join(workDir, 'tiles-0', '0', '0'), { recursive: true });
    await fs.writeFile(path.join(workDir, 'tiles-0', '0', '0', '0.jpg'), '');
    await expectTwentyOneTilesReported(imageId, workDir);
  });

  it('counts the tiles in the zip the vips command line is writing', async () => {
    const make = factories(database.db);
    const caseId = await make.case({ ownerOrganizationId: await make.organization() });
    const imageId = await make.image(caseId, { status: 'processing', conversionProgress: 0 });
    const zipDir = await fs.mkdtemp(path.join(os.tmpdir(), 'conversion-progress-zip-'));
    // The same 20 tiles of the full level and the smallest one as above, in the zip dzsave's `--container zip` writes.
    const zip = new yazl.ZipFile();
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 4; y++) zip.addBuffer(Buffer.from('tile'), `tiles-0/3/${y}/${x}.jpg`, { compress: false });
    }
    zip.addBuffer(Buffer.from('tile'), 'tiles-0/0/0/0.jpg', { compress: false });
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(path.join(zipDir, 'tiles-0.zip')));
    try {
      await expectTwentyOneTilesReported(imageId, zipDir);
    } finally {
      await fs.rm(zipDir, { recursive: true, force: true });
    }
  });
});
