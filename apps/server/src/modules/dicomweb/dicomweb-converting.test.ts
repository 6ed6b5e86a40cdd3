import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meanAbsoluteDifference } from '#test/pixels.ts';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';
import { dicomizerSlide, zipFiles } from '../../imaging/dicom-read.test-support.ts';
import { convertImageJob } from '../images/image-conversion.job.ts';
import { pyramidLevels } from '../iiif/original-plan.ts';
import { dicomUids } from './dicom-uids.ts';

type Json = Record<string, { vr: string; Value?: unknown[] }>;

const OCTETS = 'multipart/related; type="application/octet-stream"; transfer-syntax=*';
/** The Dicomizer's copy of the test slide (CMU-1-Small-Region), in 256-px frames: not our pyramid's grid. */
const SIZE = { width: 2220, height: 2967 };

/** The single part of a multipart/related answer. */
function onlyPart(contentType: string, body: Buffer): Buffer {
  const boundary = /boundary=([^;]+)/.exec(contentType)![1]!;
  const start = body.indexOf('\r\n\r\n') + 4;
  return body.subarray(start, body.indexOf(`\r\n--${boundary}`, start));
}

describe('DICOMweb of a slide while it converts', () => {
  const t = useTestApp();
  let caseId: string;
  let imageId: string;
  let dir: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization({ downloadDrawingsEnabled: true });
    caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'S-45-C' });
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    // Reads after the hand-over: a caller's slide is remembered for half a minute, as a viewer asks many frames.
    await make.join(await make.account({ subject: 'colleague' }), group, 'member');
    await make.join(await make.account({ subject: 'stranger' }), await make.organization(), 'member');
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dicomweb-converting-'));
    const zip = await zipFiles(
      path.join(dir, 'slide.zip'),
      await dicomizerSlide({ tileSize: 256, compression: 'jpeg' }),
    );
    const query = new URLSearchParams({ caseId, filename: 'slide.zip' }).toString();
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/v1/images?${query}`,
      headers: { ...(await t.auth('member')), 'content-type': 'application/octet-stream' },
      payload: await fs.readFile(zip),
    });
    expect(uploaded.statusCode).toBe(201);
    imageId = uploaded.json<{ id: string }>().id;
  }, 120_000);
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  const get = async (url: string, sub = 'member', accept = 'application/dicom+json') =>
    t.app.inject({ method: 'GET', url, headers: { ...(await t.auth(sub)), accept } });
  const series = () => `/dicomweb/studies/${dicomUids.study(caseId)}/series/${dicomUids.series(imageId)}`;
  const instance = (part: string) => `${series()}/instances/${dicomUids.instance(imageId, part)}`;
  const frame = async (part: string, number: number, sub = 'member') => {
    const response = await get(`${instance(part)}/frames/${number}`, sub, OCTETS);
    expect(response.statusCode, `${part} frame ${number}`).toBe(200);
    return onlyPart(String(response.headers['content-type']), response.rawPayload);
  };

  /** Level sizes and frame counts, as a viewer reads them from the series metadata. */
  async function levels(sub = 'member') {
    const response = await get(`${series()}/metadata`, sub);
    expect(response.statusCode).toBe(200);
    return response
      .json<Json[]>()
      .filter((entry) => entry['00080008']!.Value![2] === 'VOLUME')
      .map((entry) => ({
        width: entry['00480006']!.Value![0],
        height: entry['00480007']!.Value![0],
        tile: [entry['00280011']!.Value![0], entry['00280010']!.Value![0]],
        frames: Number(entry['00280008']!.Value![0]),
      }));
  }

  it('serves the frames of the pyramid to come from the upload on, and the same grid after the hand-over', async () => {
    const expected = pyramidLevels(SIZE.width, SIZE.height).map((level) => ({
      ...level,
      tile: [512, 512],
      frames: Math.ceil(level.width / 512) * Math.ceil(level.height / 512),
    }));
    const found = await get(`/dicomweb/studies/${dicomUids.study(caseId)}/series`);
    expect(found.json<Json[]>().map((entry) => entry['0020000E']!.Value![0])).toEqual([dicomUids.series(imageId)]);
    expect(await levels()).toEqual(expected);

    const last = expected[0]!.frames;
    const before = {
      first: await frame('level-0', 1),
      edge: await frame('level-0', last),
      top: await frame('level-2', 1),
    };
    for (const body of Object.values(before)) {
      expect(await sharp(body).metadata()).toMatchObject({ format: 'jpeg', width: 512, height: 512 });
    }
    // Part 10 files are offered once the frames are stored, and only to whoever may see the slide.
    expect((await get(instance('level-0'), 'member', 'application/dicom')).statusCode).toBe(409);
    expect((await get(`${instance('level-0')}/frames/1`, 'stranger', OCTETS)).statusCode).toBe(404);
    expect((await get(`/dicomweb/studies/${dicomUids.study(caseId)}/series`, 'stranger')).json()).toEqual([]);

    await convertImageJob(
      {
        db: t.database.db,
        blobs: t.blobs,
        log: pino({ level: 'silent' }),
        timeoutSeconds: 300,
        scratchDir: path.join(t.dataDir, 'tmp'),
      },
      { imageId, retryCount: 0, retryLimit: 0 },
    );
    expect(await levels('colleague')).toEqual(expected);
    const after = {
      first: await frame('level-0', 1, 'colleague'),
      edge: await frame('level-0', last, 'colleague'),
      top: await frame('level-2', 1, 'colleague'),
    };
    // The edge frame's padding is not part of the slide: compare what lies inside it.
    const inside = (body: Buffer) =>
      sharp(body)
        .extract({ left: 0, top: 0, width: SIZE.width % 512, height: SIZE.height % 512 })
        .toBuffer();
    expect(await meanAbsoluteDifference(before.first, after.first)).toBeLessThanOrEqual(3);
    expect(await meanAbsoluteDifference(await inside(before.edge), await inside(after.edge))).toBeLessThanOrEqual(3);
    expect(await meanAbsoluteDifference(before.top, after.top)).toBeLessThanOrEqual(3);
    expect((await get(instance('level-0'), 'colleague', 'application/dicom')).statusCode).toBe(200);
  }, 300_000);
});
