import { expect, it } from 'vitest';

/** A DICOMweb service holding one slide, and how to reach it. */
export interface DicomwebTarget {
  root: string;
  headers: Record<string, string>;
  study: string;
  series: string;
  /**
   * The part media type the service answers frames in when asked for octet-stream with transfer-syntax=*: what
   * the standard asks (application/octet-stream) unless the service is known to differ, with why it is wrong.
   */
  octetStreamFramePart?: RegExp;
}

type Json = Record<string, { vr: string; Value?: unknown[] }>;
const WSI_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.77.1.6';
const OCTETS = 'multipart/related; type="application/octet-stream"; transfer-syntax=*';

const value = (entry: Json, tag: string) => entry[tag]?.Value?.[0];

/** The parts of a multipart/related body (PS3.18 §8.6.1.2), split at the boundary its Content-Type names. */
export function multipartParts(contentType: string, body: Buffer): { type: string; body: Buffer }[] {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)![1]!;
  const found: { type: string; body: Buffer }[] = [];
  let at = body.indexOf(`--${boundary}`);
  while (at >= 0 && body.subarray(at + boundary.length + 2, at + boundary.length + 4).toString() !== '--') {
    const headersEnd = body.indexOf('\r\n\r\n', at);
    const headers = body.subarray(at, headersEnd).toString();
    const next = body.indexOf(`\r\n--${boundary}`, headersEnd);
    found.push({ type: /Content-Type: *(.*)/i.exec(headers)![1]!.trim(), body: body.subarray(headersEnd + 4, next) });
    at = next + 2;
  }
  return found;
}

/**
 * The standard's checks of a DICOMweb read side holding one JPEG whole-slide image, written once and run against
 * ours and against Orthanc's DICOMweb plugin holding the same slide: what Slim and dicom-microscopy-viewer send
 * and refuse to work without. `target` is called once the service is up.
 */
export function dicomwebConformance(target: () => DicomwebTarget): void {
  const get = (url: string, accept = 'application/dicom+json') => {
    const { root, headers } = target();
    return fetch(`${root}${url}`, { headers: { ...headers, accept } });
  };
  const json = async (url: string) => {
    const response = await get(url);
    expect(response.status, url).toBe(200);
    expect(response.headers.get('content-type'), url).toMatch(/^application\/dicom\+json/);
    return (await response.json()) as Json[];
  };
  const seriesPath = () => `/studies/${target().study}/series/${target().series}`;
  const volumes = async () =>
    (await json(`${seriesPath()}/metadata`)).filter((entry) => entry['00080008']!.Value![2] === 'VOLUME');

  it('QIDO-RS studies: the search keys Slim sends, with limit and offset (PS3.18 §10.6)', async () => {
    const { study } = target();
    const found = await json(`/studies?StudyInstanceUID=${study}&includefield=00081030&limit=25&offset=0`);
    expect(found.map((entry) => value(entry, '0020000D'))).toEqual([study]);
    const modalities = await json(`/studies?ModalitiesInStudy=SM&StudyInstanceUID=${study}`);
    expect(modalities.map((entry) => value(entry, '0020000D'))).toEqual([study]);
    expect(await json(`/studies?StudyInstanceUID=${study}&limit=1&offset=1`)).toEqual([]);
  });

  it('QIDO-RS series and instances: the slide is one SM series of VL Whole Slide Microscopy instances', async () => {
    const { study, series } = target();
    const found = await json(`/studies/${study}/series?Modality=SM`);
    expect(found.map((entry) => value(entry, '0020000E'))).toContain(series);
    expect(
      value(
        found.find((entry) => value(entry, '0020000E') === series)!,
        '00080060',
      ),
    ).toBe('SM');
    const instances = await json(`${seriesPath()}/instances`);
    expect(instances.length).toBeGreaterThan(0);
    for (const instance of instances) {
      expect(value(instance, '00080016')).toBe(WSI_SOP_CLASS);
      expect(value(instance, '00080018')).toMatch(/^[0-9.]+$/);
    }
  });

  it('WADO-RS series metadata: what dicom-microscopy-viewer builds its pyramid from (PS3.3 §C.8.12.4)', async () => {
    const levels = await volumes();
    expect(levels.length).toBeGreaterThan(1);
    for (const tag of ['00200052', '00400512']) {
      expect(new Set(levels.map((entry) => value(entry, tag))).size, tag).toBe(1);
    }
    for (const level of levels) {
      for (const tag of ['00280011', '00280010', '00480006', '00480007', '00280008', '00280002', '00280004']) {
        expect(value(level, tag), tag).toBeDefined();
      }
      expect(level['00480102']!.Value).toHaveLength(6);
      const shared = level['52009229']!.Value![0] as Json;
      const measures = shared['00289110']!.Value![0] as Json;
      expect(measures['00280030']!.Value).toHaveLength(2);
      const optical = level['00480105']!.Value![0] as Json;
      expect(value(optical, '00480106')).toBeDefined();
      // TILED_FULL (PS3.3 §C.7.6.17.3) places frames by their order; otherwise each frame carries its position.
      if (value(level, '00209311') !== 'TILED_FULL')
        expect(level['52009230']!.Value).toHaveLength(Number(value(level, '00280008')));
    }
  });

  it('WADO-RS frames: multipart octet-stream parts with transfer-syntax=*, the stored JPEG (PS3.18 §8.7.3.5)', async () => {
    const [level] = await volumes();
    const response = await get(`${seriesPath()}/instances/${String(value(level!, '00080018'))}/frames/1`, OCTETS);
    expect(response.status).toBe(200);
    const contentType = response.headers.get('content-type')!;
    expect(contentType).toMatch(/^multipart\/related/);
    const [frame] = multipartParts(contentType, Buffer.from(await response.arrayBuffer()));
    expect(frame!.type).toMatch(target().octetStreamFramePart ?? /^application\/octet-stream/);
    expect(frame!.type).toMatch(/transfer-syntax=1\.2\.840\.10008\.1\.2\.4\.50/);
    expect(frame!.body.subarray(0, 2).toString('hex')).toBe('ffd8');
  });

  it('WADO-RS rendered: a frame as JPEG and as PNG (PS3.18 §9.5)', async () => {
    const [level] = await volumes();
    const url = `${seriesPath()}/instances/${String(value(level!, '00080018'))}/frames/1/rendered`;
    for (const [accept, magic] of [
      ['image/jpeg', 'ffd8'],
      ['image/png', '89504e47'],
    ] as const) {
      const response = await get(url, accept);
      expect(response.status, accept).toBe(200);
      expect(response.headers.get('content-type'), accept).toBe(accept);
      const body = Buffer.from(await response.arrayBuffer());
      expect(body.subarray(0, magic.length / 2).toString('hex'), accept).toBe(magic);
    }
  });
}
