import path from 'node:path';
import pino from 'pino';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { convertedSlide } from '#test/image-fixtures.ts';
import { useTestApp } from '#test/test-app.ts';
import { slidePath } from '#test/testdata.ts';
import { zipEntries } from '#test/zip-entries.ts';
import { convertImageJob } from '../images/image-conversion.job.ts';
import { dicomUids } from './dicom-uids.ts';

type Json = Record<string, { vr: string; Value?: unknown[]; BulkDataURI?: string }>;

const OCTETS = 'multipart/related; type="application/octet-stream"; transfer-syntax=*';

/** The parts of a multipart/related body, split at the boundary its Content-Type names. */
function parts(contentType: string, body: Buffer): { type: string; body: Buffer }[] {
  const boundary = /boundary=([^;]+)/.exec(contentType)![1]!;
  const found: { type: string; body: Buffer }[] = [];
  let at = body.indexOf(`--${boundary}`);
  while (at >= 0 && body.subarray(at + boundary.length + 2, at + boundary.length + 4).toString() !== '--') {
    const headersEnd = body.indexOf('\r\n\r\n', at);
    const headers = body.subarray(at, headersEnd).toString();
    const next = body.indexOf(`\r\n--${boundary}`, headersEnd);
    found.push({ type: /Content-Type: (.*)/i.exec(headers)![1]!.trim(), body: body.subarray(headersEnd + 4, next) });
    at = next + 2;
  }
  return found;
}

describe('DICOMweb (QIDO-RS, WADO-RS)', () => {
  const t = useTestApp({ dicomwebCorsOrigins: ['https://viewer.test'] });
  let mine: { imageId: string; layerId: string; caseId: string };
  let theirs: { imageId: string; caseId: string };

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization({ downloadDrawingsEnabled: true });
    const otherGroup = await make.organization();
    await make.join(await make.account({ subject: 'viewer' }), group, 'read_only');
    await make.join(await make.account({ subject: 'other' }), otherGroup, 'member');
    const caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'S-45-A', organ: 'liver' });
    const otherCase = await make.case({ ownerOrganizationId: otherGroup, caseNumber: 'S-45-B' });
    mine = { ...(await convertedSlide(t, caseId, slidePath('CMU-1-Small-Region.svs'))), caseId };
    theirs = { ...(await convertedSlide(t, otherCase, slidePath('CMU-1-Small-Region.svs'))), caseId: otherCase };
  }, 120_000);

  const get = async (url: string, sub = 'viewer', headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...(await t.auth(sub)), ...headers } });
  const seriesPath = () => `/dicomweb/studies/${dicomUids.study(mine.caseId)}/series/${dicomUids.series(mine.imageId)}`;
  const level0 = () => `${seriesPath()}/instances/${dicomUids.instance(mine.imageId, 'level-0')}`;

  it('finds studies by the keys Slim sends, with fuzzy matching, limit and offset; only visible ones', async () => {
    const search = async (query: string, sub = 'viewer') => {
      const response = await get(`/dicomweb/studies?${query}`, sub);
      expect(response.statusCode, query).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/dicom\+json/);
      return response.json<Json[]>().map((study) => study['00080050']?.Value?.[0]);
    };
    const all = await get(
      '/dicomweb/studies?ModalitiesInStudy=SM&limit=25&offset=0&fuzzymatching=false&includefield=all',
    );
    const [study] = all.json<Json[]>();
    expect(study!['0020000D']!.Value).toEqual([dicomUids.study(mine.caseId)]);
    expect(study!['00080061']!.Value).toEqual(['SM']);
    expect(study!['00201206']!.Value).toEqual([1]);
    expect(study!['00081030']!.Value).toEqual(['liver']);
    expect(await search('ModalitiesInStudy=SM')).toEqual(['S-45-A']);
    expect(await search('ModalitiesInStudy=SM', 'other')).toEqual(['S-45-B']);
    expect(await search('AccessionNumber=s-45-a&fuzzymatching=true')).toEqual(['S-45-A']);
    expect(await search('AccessionNumber=s-45-a')).toEqual([]);
    expect(await search('AccessionNumber=S-45-*')).toEqual(['S-45-A']);
    expect(await search('00100020=S-45-A')).toEqual(['S-45-A']);
    expect(await search('PatientName=Doe*')).toEqual([]);
    expect(await search('ModalitiesInStudy=CT')).toEqual([]);
    expect(await search('limit=1&offset=1')).toEqual([]);
    expect(await search(`StudyInstanceUID=${dicomUids.study(theirs.caseId)}`)).toEqual([]);
  });

  it('lists the slide as a series and its levels and pictures as instances, for its own caller only', async () => {
    const series = await get(`/dicomweb/studies/${dicomUids.study(mine.caseId)}/series`);
    expect(series.json<Json[]>().map((entry) => entry['0020000E']!.Value![0])).toEqual([
      dicomUids.series(mine.imageId),
    ]);
    expect(
      (await get('/dicomweb/series', 'other')).json<Json[]>().map((entry) => entry['0020000E']!.Value![0]),
    ).toEqual([dicomUids.series(theirs.imageId)]);
    const instances = (await get(`${seriesPath()}/instances`)).json<Json[]>();
    const types = instances.map((entry) => entry['00080008']!.Value![2]);
    expect(types).toEqual(['VOLUME', 'VOLUME', 'VOLUME', 'VOLUME', 'LABEL', 'OVERVIEW', 'THUMBNAIL']);
    const one = await get(`${seriesPath()}/instances?SOPInstanceUID=${dicomUids.instance(mine.imageId, 'label')}`);
    expect(one.json<Json[]>().length).toBe(1);
    expect((await get(`${seriesPath()}/instances`, 'other')).json<Json[]>().length).toBe(0);
  });

  it("gives the image's study and series UIDs in its API answer, which name its series here", async () => {
    const image = await get(`/api/v1/images/${mine.imageId}`);
    expect(image.statusCode).toBe(200);
    const { studyInstanceUid, seriesInstanceUid } = image.json<{
      dicom: { studyInstanceUid: string; seriesInstanceUid: string };
    }>().dicom;
    const series = await get(`/dicomweb/studies/${studyInstanceUid}/series/${seriesInstanceUid}/metadata`);
    expect(series.statusCode).toBe(200);
    expect(series.json<Json[]>()[0]!['0020000E']!.Value).toEqual([seriesInstanceUid]);
  });

  it('gives series metadata as DICOM JSON: TILED_FULL, one frame of reference and container, ICC as bulk data', async () => {
    const response = await get(`${seriesPath()}/metadata`);
    expect(response.statusCode).toBe(200);
    const metadata = response.json<Json[]>();
    expect(new Set(metadata.map((entry) => entry['00200052']!.Value![0]))).toEqual(
      new Set([dicomUids.frameOfReference(mine.imageId)]),
    );
    expect(new Set(metadata.map((entry) => entry['00400512']!.Value![0]))).toEqual(new Set([mine.imageId]));
    expect(metadata.every((entry) => entry['00209311']!.Value![0] === 'TILED_FULL')).toBe(true);
    const path = metadata[0]!['00480105']!.Value![0] as Json;
    const uri = new URL(path['00282000']!.BulkDataURI!);
    const bulk = await get(uri.pathname, 'viewer', { accept: OCTETS });
    expect(bulk.statusCode).toBe(200);
    const [icc] = parts(String(bulk.headers['content-type']), bulk.rawPayload);
    expect(icc!.body.subarray(36, 40).toString()).toBe('acsp');
  });

  it('serves frames as the stored JPEG tiles byte for byte, in the media type asked for', async () => {
    const response = await get(`${level0()}/frames/1,2`, 'viewer', { accept: OCTETS });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^multipart\/related; type="application\/octet-stream"/);
    const frames = parts(String(response.headers['content-type']), response.rawPayload);
    expect(frames.map((frame) => frame.type)).toEqual([
      'application/octet-stream; transfer-syntax=1.2.840.10008.1.2.4.50',
      'application/octet-stream; transfer-syntax=1.2.840.10008.1.2.4.50',
    ]);
    const tile = await get(`/iiif/2/${mine.layerId}/512,0,512,512/512,/0/default.jpg`);
    expect(frames[1]!.body.equals(tile.rawPayload)).toBe(true);

    const jpeg = await get(`${level0()}/frames/1`, 'viewer', {
      accept: 'multipart/related; type="image/jpeg"; transfer-syntax=1.2.840.10008.1.2.4.50',
    });
    expect(parts(String(jpeg.headers['content-type']), jpeg.rawPayload)[0]!.type).toMatch(/^image\/jpeg/);
    // 2220 × 2967 in 512-px tiles: 5 × 6 frames; the last is an edge tile, padded to the frame size.
    const last = await get(`${level0()}/frames/30`, 'viewer', { accept: OCTETS });
    const edge = parts(String(last.headers['content-type']), last.rawPayload)[0]!.body;
    expect(await sharp(edge).metadata()).toMatchObject({ width: 512, height: 512 });
    expect((await get(`${level0()}/frames/31`, 'viewer', { accept: OCTETS })).statusCode).toBe(404);
    const uncompressed = await get(`${level0()}/frames/1`, 'viewer', {
      accept: 'multipart/related; type="application/octet-stream"',
    });
    expect(uncompressed.statusCode).toBe(406);
  });

  it('gives the same Part 10 file as the export, and renders label, overview and thumbnail', async () => {
    const superUser = { authorization: (await t.auth('admin', { superUser: true })).authorization };
    const zip = await t.app.inject({ method: 'GET', url: `/api/v1/images/${mine.imageId}/dicom`, headers: superUser });
    expect(zip.statusCode).toBe(200);
    const exported = (await zipEntries(zip.rawPayload)).get('level-0.dcm')!;
    const retrieved = await get(level0(), 'viewer', { accept: 'multipart/related; type="application/dicom"' });
    expect(retrieved.statusCode).toBe(200);
    expect(parts(String(retrieved.headers['content-type']), retrieved.rawPayload)[0]!.body.equals(exported)).toBe(true);
    for (const part of ['label', 'overview', 'thumbnail']) {
      const url = `${seriesPath()}/instances/${dicomUids.instance(mine.imageId, part)}/rendered`;
      const asJpeg = await get(url, 'viewer', { accept: 'image/jpeg' });
      expect(asJpeg.headers['content-type'], part).toBe('image/jpeg');
      const asPng = await get(url, 'viewer', { accept: 'image/png' });
      expect(asPng.headers['content-type'], part).toBe('image/png');
      expect((await sharp(asPng.rawPayload).metadata()).format).toBe('png');
    }
  });

  it('answers 404 to another tenant and to a study the series is not in, 401 without a token', async () => {
    for (const url of [`${seriesPath()}/metadata`, `${level0()}/frames/1`, level0(), `${level0()}/metadata`]) {
      expect((await get(url, 'other', { accept: OCTETS })).statusCode, url).toBe(404);
    }
    const wrongStudy = `/dicomweb/studies/${dicomUids.study(theirs.caseId)}/series/${dicomUids.series(mine.imageId)}/metadata`;
    expect((await get(wrongStudy)).statusCode).toBe(404);
    expect((await get(`/dicomweb/studies/${dicomUids.study(mine.caseId)}/metadata`, 'other')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `${seriesPath()}/metadata` })).statusCode).toBe(401);
  });

  it('lets the configured viewer origin read it, the 401 of a token that expired mid-session included', async () => {
    const token = await t.issuer.sign({ sub: 'viewer', expiresIn: '2s' });
    const headers = { authorization: `Bearer ${token}`, origin: 'https://viewer.test', accept: OCTETS };
    const during = await t.app.inject({ method: 'GET', url: `${level0()}/frames/1`, headers });
    expect(during.statusCode).toBe(200);
    expect(during.headers['access-control-allow-origin']).toBe('https://viewer.test');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const after = await t.app.inject({ method: 'GET', url: `${level0()}/frames/2`, headers });
    expect(after.statusCode).toBe(401);
    expect(after.headers['access-control-allow-origin']).toBe('https://viewer.test');

    const foreign = await get(`${seriesPath()}/metadata`, 'viewer', { origin: 'https://elsewhere.test' });
    expect(foreign.statusCode).toBe(200);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: `${level0()}/frames/1`,
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
    const allowed = await preflight('https://viewer.test');
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-headers']).toMatch(/Authorization/);
    expect((await preflight('https://elsewhere.test')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keeps its UIDs through a reprocess: they come from the case and image ids', async () => {
    const before = (await get(`${seriesPath()}/metadata`)).json<Json[]>();
    const pyramidKey = `SELECT pyramid_key FROM image_layers WHERE image_id = $1`;
    const keyBefore = (await t.database.pool.query(pyramidKey, [mine.imageId])).rows[0].pyramid_key;
    const deps = { db: t.database.db, blobs: t.blobs, log: pino({ level: 'silent' }), timeoutSeconds: 120 };
    await t.database.pool.query(`UPDATE images SET status = 'uploaded' WHERE id = $1`, [mine.imageId]);
    await convertImageJob(
      { ...deps, scratchDir: path.join(t.dataDir, 'tmp') },
      { imageId: mine.imageId, retryCount: 0, retryLimit: 0 },
    );
    expect((await t.database.pool.query(pyramidKey, [mine.imageId])).rows[0].pyramid_key).not.toBe(keyBefore);
    // Another caller: the viewer's answer is remembered for half a minute.
    const admin = await t.auth('admin', { superUser: true });
    const after = (await get(`${seriesPath()}/metadata`, 'admin', admin)).json<Json[]>();
    const uids = (list: Json[]) => list.map((entry) => entry['00080018']!.Value![0]);
    expect(uids(after)).toEqual(uids(before));
  }, 60_000);
});
