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

const run = promisify(execFile);

describe('IIIF image API', () => {
  const t = useTestApp();
  const layers: Record<string, string> = {};

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    const viewer = await make.account({ subject: 'viewer' });
    await make.account({ subject: 'stranger' });
    await make.join(viewer, group, 'read_only');
    const caseId = await make.case({ ownerOrganizationId: group });
    layers.svs = (await convertedSlide(t, caseId, slidePath('CMU-1-Small-Region.svs'))).layerId;
    layers.gray16 = (await convertedSlide(t, caseId, slidePath('smalltif-16bit.tif'))).layerId;
  }, 60_000);

  const get = async (url: string, sub = 'viewer', headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...(await t.auth(sub)), ...headers } });

  const pixels = async (body: Buffer) => sharp(body).removeAlpha().raw().toBuffer({ resolveWithObject: true });

  async function meanAbsoluteDifference(a: Buffer, b: Buffer): Promise<number> {
    const [left, right] = [await pixels(a), await pixels(b)];
    expect([left.info.width, left.info.height]).toEqual([right.info.width, right.info.height]);
    let sum = 0;
    for (let i = 0; i < left.data.length; i++) sum += Math.abs(left.data[i]! - right.data[i]!);
    return sum / left.data.length;
  }

  it('describes a layer with info.json (level 2 profile, 512 tiles, scale factors, sizes)', async () => {
    const response = await get(`/iiif/2/${layers.svs}/info.json`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const info = response.json();
    expect(info).toMatchObject({
      '@context': 'http://iiif.io/api/image/2/context.json',
      '@id': `http://localhost:80/iiif/2/${layers.svs}`,
      protocol: 'http://iiif.io/api/image',
      width: 2220,
      height: 2967,
      tiles: [{ width: 512, height: 512, scaleFactors: [1, 2, 4, 8] }],
    });
    expect(info.profile[0]).toBe('http://iiif.io/api/image/2/level2.json');
    expect(info.sizes.at(-1)).toEqual({ width: 2220, height: 2967 });

    const jsonLd = await get(`/iiif/2/${layers.svs}/info.json`, 'viewer', { accept: 'application/ld+json' });
    expect(jsonLd.headers['content-type']).toMatch(/^application\/ld\+json/);
  });

  it('redirects the bare identifier to its info.json, also when the identifier is percent-escaped', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/iiif/2/${layers.svs}` });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`http://localhost:80/iiif/2/${layers.svs}/info.json`);
    const escaped = layers.svs!.replace(/-/g, '%2D');
    expect((await get(`/iiif/2/${escaped}/info.json`)).statusCode).toBe(200);
  });

  it('needs the token and a visible case: 401 without, 404 for a stranger and an unknown id', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/iiif/2/${layers.svs}/info.json` })).statusCode).toBe(401);
    expect((await get(`/iiif/2/${layers.svs}/info.json`, 'stranger')).statusCode).toBe(404);
    expect((await get(`/iiif/2/${layers.svs}/0,0,512,512/512,/0/default.jpg`, 'stranger')).statusCode).toBe(404);
    expect((await get('/iiif/2/00000000-0000-4000-8000-000000000000/info.json')).statusCode).toBe(404);
    expect((await get('/iiif/2/not-an-id/info.json')).statusCode).toBe(404);
  });

  it('passes an aligned interior tile through as stored, with ETag and a long immutable cache', async () => {
    const url = `/iiif/2/${layers.svs}/512,512,512,512/512,/0/default.jpg`;
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(await sharp(response.rawPayload).metadata()).toMatchObject({ width: 512, height: 512, format: 'jpeg' });
    const again = await get(url, 'viewer', { 'if-none-match': String(response.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('serves every size, region and rotation form, in jpg and png', async () => {
    const id = layers.svs;
    const cases: [string, number, number][] = [
      ['full/max/0/default.jpg', 2220, 2967],
      ['full/256,/0/default.jpg', 256, 342],
      ['full/,300/0/color.jpg', 224, 300],
      ['full/pct:10/0/gray.png', 222, 297],
      ['full/!200,200/0/default.png', 150, 200],
      ['full/100,100/0/default.jpg', 100, 100],
      ['pct:0,0,50,50/full/0/default.jpg', 1110, 1484],
      ['square/64,/0/default.jpg', 64, 64],
      ['2048,2560,512,512/full/0/default.jpg', 172, 407],
      ['0,0,1024,512/256,/90/default.jpg', 128, 256],
      ['0,0,1024,512/256,/!180/bitonal.png', 256, 128],
    ];
    for (const [params, width, height] of cases) {
      const response = await get(`/iiif/2/${id}/${params}`);
      expect(response.statusCode, params).toBe(200);
      expect(await sharp(response.rawPayload).metadata(), params).toMatchObject({ width, height });
    }
    const gray = await get(`/iiif/2/${id}/0,0,64,64/full/0/gray.png`);
    expect((await sharp(gray.rawPayload).stats()).isOpaque).toBe(true);
  });

  it('answers 400 for malformed parameters and 415 for formats it does not make', async () => {
    const id = layers.svs;
    for (const params of [
      'nowhere/full/0/default.jpg',
      '0,0,0,10/full/0/default.jpg',
      '5000,0,10,10/full/0/default.jpg',
      'full/abc/0/default.jpg',
      'full/0,/0/default.jpg',
      'full/4000,/0/default.jpg',
      'full/full/45/default.jpg',
      'full/full/x/default.jpg',
      'full/max/0/sepia.jpg',
      'full/max/0/default',
    ]) {
      expect((await get(`/iiif/2/${id}/${params}`)).statusCode, params).toBe(400);
    }
    expect((await get(`/iiif/2/${id}/full/max/0/default.webp`)).statusCode).toBe(415);
    expect((await get(`/iiif/2/${id}/full/max/0/default.webp`)).headers['cache-control']).toBeUndefined();
  });

  it('matches the slide read directly by OpenSlide at several levels (mean difference under 3/255)', async () => {
    const scratch = await fs.mkdtemp(path.join(t.dataDir, 'fidelity-'));
    const reference = async (level: number, left: number, top: number, width: number, height: number) => {
      const full = path.join(scratch, `level-${level}.png`);
      const cut = path.join(scratch, `cut-${level}-${left}-${top}.png`);
      // libvips' own shrink of the OpenSlide read: the same chain the pyramid was made with, without JPEG.
      await run(
        'vips',
        ['shrink', `${slidePath('CMU-1-Small-Region.svs')}[rgb]`, full, String(2 ** level), String(2 ** level)],
        {
          env: { ...process.env, VIPSHOME: '' },
        },
      );
      await run('vips', ['crop', full, cut, String(left), String(top), String(width), String(height)], {
        env: { ...process.env, VIPSHOME: '' },
      });
      return fs.readFile(cut);
    };
    for (const [level, column, row] of [
      [0, 1, 1],
      [0, 3, 4],
      [0, 4, 5],
      [0, 1, 5],
      [1, 1, 2],
      [2, 0, 0],
      [2, 1, 1],
    ] as const) {
      const scale = 2 ** level;
      const x = column * 512 * scale;
      const y = row * 512 * scale;
      // As OpenSeadragon asks: the cell clipped to the image, its width at this scale rounded up.
      const width = Math.min(512 * scale, 2220 - x);
      const size = Math.ceil(width / scale);
      const tile = await get(
        `/iiif/2/${layers.svs}/${x},${y},${width},${Math.min(512 * scale, 2967 - y)}/${size},/0/default.jpg`,
      );
      expect(tile.statusCode).toBe(200);
      const served = await sharp(tile.rawPayload).metadata();
      const expected = await reference(level, column * 512, row * 512, served.width, served.height);
      const difference = await meanAbsoluteDifference(tile.rawPayload, expected);
      expect(difference, `level ${level} tile ${column},${row}`).toBeLessThan(3);
    }
  });

  it('serves a grey 16-bit image rescaled, as a one-channel JPEG', async () => {
    const response = await get(`/iiif/2/${layers.gray16}/full/max/0/default.jpg`);
    expect(response.statusCode).toBe(200);
    expect(await sharp(response.rawPayload).metadata()).toMatchObject({ width: 640, height: 480 });
  });
});
