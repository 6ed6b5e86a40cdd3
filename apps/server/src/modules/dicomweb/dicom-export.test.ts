import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { convertedSlide } from '#test/image-fixtures.ts';
import { useTestApp } from '#test/test-app.ts';
import { slidePath } from '#test/testdata.ts';
import { zipEntries } from '#test/zip-entries.ts';
import { dicomUids } from './dicom-uids.ts';

const run = promisify(execFile);

/** Runs a DICOM tool and gives what it printed; null (with the reason printed) when it is not installed. */
async function tool(name: string, args: string[]): Promise<string | null> {
  try {
    const { stdout, stderr } = await run(name, args, { maxBuffer: 64 * 1024 * 1024 });
    return `${stdout}${stderr}`;
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (failure.code === 'ENOENT') {
      console.warn(`${name} is not installed (Debian: dicom3tools / dcmtk): its check is skipped`);
      return null;
    }
    return `${failure.stdout ?? ''}${failure.stderr ?? ''}`;
  }
}

const errorLines = (output: string) => output.split('\n').filter((line) => /^\s*Error/.test(line));

describe('DICOM export (GET images/{id}/dicom)', () => {
  const t = useTestApp();
  const slides: Record<string, { imageId: string; caseId: string }> = {};

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization({ downloadDrawingsEnabled: true });
    await make.join(await make.account({ subject: 'exporter' }), group, 'member');
    await make.join(await make.account({ subject: 'viewer' }), group, 'read_only');
    await make.account({ subject: 'stranger' });
    const caseId = await make.case({
      ownerOrganizationId: group,
      caseNumber: 'S-45-001',
      organ: 'stomach',
      specimenType: 'biopsy',
      diagnosis: 'never exported',
    });
    for (const name of ['CMU-1-Small-Region.svs', 'smalltif-16bit.tif', 'multi-channel-z-series.ome.tif']) {
      slides[name] = { ...(await convertedSlide(t, caseId, slidePath(name))), caseId };
    }
  }, 120_000);

  const get = async (url: string, sub = 'exporter') => t.app.inject({ method: 'GET', url, headers: await t.auth(sub) });

  async function exported(name: string): Promise<{ dir: string; files: Map<string, Buffer> }> {
    const response = await get(`/api/v1/images/${slides[name]!.imageId}/dicom`);
    expect(response.statusCode, name).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/\.dicom\.zip/);
    const files = await zipEntries(response.rawPayload);
    const dir = await fs.mkdtemp(path.join(t.dataDir, 'dicom-'));
    for (const [file, bytes] of files) await fs.writeFile(path.join(dir, file), bytes);
    return { dir, files };
  }

  it('gives one valid Part 10 file per level and picture of every test slide: dciodvfy 0 errors, dcentvfy consistent', async () => {
    for (const name of Object.keys(slides)) {
      const { dir, files } = await exported(name);
      expect([...files.keys()].filter((file) => file.startsWith('level-')).length, name).toBeGreaterThan(0);
      for (const file of files.keys()) {
        const output = await tool('dciodvfy', ['-new', path.join(dir, file)]);
        if (output == null) return;
        expect(errorLines(output), `${name} ${file}:\n${output}`).toEqual([]);
        // The warnings the README lists: a case has no study date or time.
        const unlisted = output
          .split('\n')
          .filter((line) => /^\s*Warning/.test(line) && !/<\/Study(Date|Time)\(0008,00[23]0\)> - Missing/.test(line));
        expect(unlisted, `${name} ${file}`).toEqual([]);
      }
      const consistency = await tool(
        'dcentvfy',
        [...files.keys()].map((file) => path.join(dir, file)),
      );
      if (consistency != null) expect(errorLines(consistency), `${name}:\n${consistency}`).toEqual([]);
    }
  }, 120_000);

  it('holds the case number, organ and specimen type of the case and nothing else of it; UIDs from our ids', async () => {
    const { dir, files } = await exported('CMU-1-Small-Region.svs');
    expect([...files.keys()]).toEqual(
      expect.arrayContaining(['level-0.dcm', 'level-3.dcm', 'label.dcm', 'overview.dcm']),
    );
    const dump = await tool('dcmdump', [path.join(dir, 'level-0.dcm')]);
    if (dump == null) return;
    const value = (tag: string) => new RegExp(`^\\(${tag}\\) \\w\\w \\[?([^\\]#]*?)\\]? +#`, 'm').exec(dump)?.[1];
    const { imageId, caseId } = slides['CMU-1-Small-Region.svs']!;
    expect(value('0008,0050')).toBe('S-45-001');
    expect(value('0020,000d')).toBe(dicomUids.study(caseId));
    expect(value('0020,000e')).toBe(dicomUids.series(imageId));
    expect(value('0020,9311')).toBe('TILED_FULL');
    expect([value('0048,0006'), value('0048,0007')]).toEqual(['2220', '2967']);
    expect(dump).toContain('stomach');
    expect(dump).toContain('biopsy');
    expect(dump).not.toContain('never exported');
  }, 60_000);

  it('carries the stored tiles as frames: the first frame of level 0 decodes to the same pixels as the IIIF tile', async () => {
    const { files } = await exported('CMU-1-Small-Region.svs');
    const file = files.get('level-0.dcm')!;
    // The first fragment after the Basic Offset Table holds frame 1: an item tag, its length, then the JPEG.
    const pixelData = file.lastIndexOf(Buffer.from([0xe0, 0x7f, 0x10, 0x00, 0x4f, 0x42]));
    const tableLength = file.readUInt32LE(pixelData + 16);
    const first = pixelData + 20 + tableLength;
    const frame = file.subarray(first + 8, first + 8 + file.readUInt32LE(first + 4));
    const layer = await t.database.pool.query<{ id: string }>(`SELECT id FROM image_layers WHERE image_id = $1`, [
      slides['CMU-1-Small-Region.svs']!.imageId,
    ]);
    const tile = await t.app.inject({
      method: 'GET',
      url: `/iiif/2/${layer.rows[0]!.id}/0,0,512,512/512,/0/default.jpg`,
      headers: await t.auth('exporter'),
    });
    expect(frame.subarray(0, frame.length - (frame.at(-1) === 0 ? 1 : 0))).toEqual(tile.rawPayload);
    expect(await sharp(frame).metadata()).toMatchObject({ width: 512, height: 512 });
  });

  it('needs the right to download drawings: 403 for a read-only viewer, 404 for a stranger and unknown ids', async () => {
    const url = `/api/v1/images/${slides['CMU-1-Small-Region.svs']!.imageId}/dicom`;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await get(url, 'viewer')).statusCode).toBe(403);
    expect((await get(url, 'stranger')).statusCode).toBe(404);
    expect((await get('/api/v1/images/00000000-0000-4000-8000-000000000000/dicom')).statusCode).toBe(404);
    expect((await get('/api/v1/images/not-an-id/dicom')).statusCode).toBe(404);
  });

  it('lets no other origin read DICOMweb unless configured', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/dicomweb/studies',
      headers: { ...(await t.auth('viewer')), origin: 'https://viewer.test' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});
