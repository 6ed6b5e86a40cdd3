import path from 'node:path';
import type { Image } from '@pathology/contract';
import pino from 'pino';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { convertedSlide } from '#test/image-fixtures.ts';
import { useTestApp } from '#test/test-app.ts';
import { slidePath } from '#test/testdata.ts';
import { convertImageJob } from '../images/image-conversion.job.ts';

/** The same region of the slide at three scales: full resolution, a quarter and a sixteenth of the pixels. */
const REGIONS = [
  { region: '1024,1024,512,512', size: '512,' },
  { region: '0,0,1024,1024', size: '512,' },
  { region: '0,0,2048,2048', size: '512,' },
];

describe('DICOM round trip (issue 45): export, then import of the export', () => {
  const t = useTestApp();
  let caseId: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization({ downloadDrawingsEnabled: true });
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'S-45-RT' });
  });

  const call = async (method: 'GET' | 'POST', url: string, payload?: Buffer) =>
    t.app.inject({
      method,
      url,
      payload,
      headers: { ...(await t.auth('member')), ...(payload ? { 'content-type': 'application/octet-stream' } : {}) },
    });

  async function pixels(layerId: string, region: string, size: string): Promise<Buffer> {
    const tile = await call('GET', `/iiif/2/${layerId}/${region}/${size}/0/default.jpg`);
    expect(tile.statusCode, `${region} ${size}`).toBe(200);
    return sharp(tile.rawPayload).removeAlpha().raw().toBuffer();
  }

  it('gives the same pixels: IIIF tiles of both images at three levels within 3/255 mean difference', async () => {
    const original = await convertedSlide(t, caseId, slidePath('CMU-1-Small-Region.svs'));
    const exported = await call('GET', `/api/v1/images/${original.imageId}/dicom`);
    expect(exported.statusCode).toBe(200);

    const query = new URLSearchParams({ caseId, filename: 'CMU-1-Small-Region.dicom.zip' }).toString();
    const uploaded = await call('POST', `/api/v1/images?${query}`, exported.rawPayload);
    expect(uploaded.statusCode).toBe(201);
    const { id } = uploaded.json<{ id: string }>();
    // The test app runs no worker: the conversion runs here.
    await convertImageJob(
      {
        db: t.database.db,
        blobs: t.blobs,
        log: pino({ level: 'silent' }),
        timeoutSeconds: 120,
        scratchDir: path.join(t.dataDir, 'tmp'),
      },
      { imageId: id, retryCount: 0, retryLimit: 0 },
    );

    const shown = async (imageId: string) => (await call('GET', `/api/v1/images/${imageId}`)).json<Image>();
    const before = await shown(original.imageId);
    const after = await shown(id);
    expect(after).toMatchObject({ status: 'available', format: 'dicom', dimensions: before.dimensions });
    expect(after.resolution).toEqual(before.resolution);
    const layerOf = (image: Image) => image.imageLayerResources[0]!.id;
    for (const { region, size } of REGIONS) {
      const a = await pixels(layerOf(before), region, size);
      const b = await pixels(layerOf(after), region, size);
      expect(b.length, region).toBe(a.length);
      let total = 0;
      for (let index = 0; index < a.length; index += 1) total += Math.abs(a[index]! - b[index]!);
      expect(total / a.length, region).toBeLessThanOrEqual(3);
    }
  }, 180_000);
});
