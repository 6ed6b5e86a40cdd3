import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { IMAGE_MESSAGES } from '@pathology/contract';
import { sharp } from '../../imaging/sharp-setup.ts';
import { bulkDataAt, toDicomJson, type DicomJson } from '../../imaging/dicom-write-json.ts';
import { TRANSFER_SYNTAX } from '../../imaging/dicom-write.ts';
import { HttpError } from '../../http/http-error.ts';
import { AVAILABLE_TRANSFER_SYNTAX } from './dicom-attributes.ts';
import type { DicomAccess } from './dicom-access.ts';
import { part10File } from './dicom-export.ts';
import type { DicomSearch } from './dicom-search.ts';
import type { SlideInstance } from './dicom-slide.ts';
import { uuidOfUid } from './dicom-uids.ts';
import { framesMediaType, mediaRanges, multipartRelated, takesJpeg, type Part } from './multipart.ts';
import { inStudy } from './qido-query.ts';

interface Deps {
  access: DicomAccess;
  search: DicomSearch;
}

type Uids = { study: string; series: string; instance: string };
const SERIES = '/studies/:study/series/:series';
const INSTANCE = `${SERIES}/instances/:instance`;
const DICOM_JSON = 'application/dicom+json';
/** A viewer asks for frames and metadata again and again; the answer is only for the caller (private). */
const CACHE = 'private, max-age=30';

/** The root the bulk data URIs point under, as the client reached us. */
function root(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/dicomweb`;
}

const uidOf = (instance: SlideInstance) => String(instance.dataset['00080018']!.values![0]);

/** The slide a series UID names, for a caller who may see it and only under its own study; 404 otherwise. */
async function seriesOf(access: DicomAccess, request: FastifyRequest, uids: Pick<Uids, 'study' | 'series'>) {
  const imageId = uuidOfUid(uids.series);
  if (imageId == null) throw HttpError.notFound();
  const slide = await access.forViewing(request.caller, imageId);
  if (uuidOfUid(uids.study) !== slide.study.caseId) throw HttpError.notFound();
  return slide;
}

async function instanceOf(access: DicomAccess, request: FastifyRequest, uids: Uids) {
  const slide = await seriesOf(access, request, uids);
  const instance = slide.instances.find((candidate) => uidOf(candidate) === uids.instance);
  if (instance == null) throw HttpError.notFound();
  return { slide, instance };
}

function metadata(request: FastifyRequest, instance: SlideInstance): DicomJson {
  const study = String(instance.dataset['0020000D']!.values![0]);
  const series = String(instance.dataset['0020000E']!.values![0]);
  const base = `${root(request)}/studies/${study}/series/${series}/instances/${uidOf(instance)}/bulkdata`;
  return {
    ...toDicomJson(instance.dataset, (path) => `${base}/${path.join('/')}`),
    '00083002': { vr: 'UI', Value: [AVAILABLE_TRANSFER_SYNTAX] },
  };
}

function sendJson(reply: FastifyReply, body: unknown): FastifyReply {
  return reply.header('Cache-Control', CACHE).type(DICOM_JSON).send(JSON.stringify(body));
}

/** Frame numbers of a frames request: a comma-separated list, each 1 to the instance's count; 404 beyond it. */
function frameNumbers(list: string, count: number): number[] {
  const numbers = list.split(',').map((entry) => entry.trim());
  if (numbers.some((entry) => !/^[1-9]\d*$/.test(entry))) throw new HttpError(400, 'Frame numbers must be 1 or more');
  const parsed = numbers.map(Number);
  if (parsed.some((frame) => frame > count)) throw HttpError.notFound();
  return parsed;
}

/** Whether the client takes Part 10 files (PS3.18 §8.7.3.5.1): multipart of application/dicom, or the bare file. */
function dicomMediaType(accept: string | undefined): 'multipart' | 'bare' | null {
  const ranges = mediaRanges(accept);
  if (
    ranges.some(
      (range) => range.type === 'multipart/related' && range.partType === 'application/dicom' && takesJpeg(range),
    )
  ) {
    return 'multipart';
  }
  if (ranges.some((range) => range.type === 'application/dicom' && takesJpeg(range))) return 'bare';
  if (ranges.some((range) => range.type === '*/*' || (range.type === 'multipart/related' && range.partType == null))) {
    return 'multipart';
  }
  return null;
}

const notAcceptable = () => new HttpError(406, 'Not Acceptable: frames are served as stored, in JPEG baseline');

function sendInstances(request: FastifyRequest, reply: FastifyReply, instances: SlideInstance[]) {
  const kind = dicomMediaType(request.headers.accept);
  if (kind == null) throw notAcceptable();
  const files = instances.map(part10File);
  // A converting slide's frames are made on request: its files are offered once they are stored.
  if (files.some((file) => file == null)) throw HttpError.conflict(IMAGE_MESSAGES.imageNotAvailable);
  if (kind === 'bare' && files.length === 1) {
    const file = files[0]!;
    return reply.type('application/dicom').header('Content-Length', file.size).send(file.stream());
  }
  const parts: Part[] = files.map((file) => ({
    contentType: `application/dicom; transfer-syntax=${TRANSFER_SYNTAX.jpegBaseline}`,
    body: async () => file!.stream(),
  }));
  const { contentType, body } = multipartRelated('application/dicom', parts);
  return reply.type(contentType).send(body);
}

/** A picture of a frame, or of a single-frame instance, as JPEG (the stored one) or PNG, as Accept asks. */
async function sendRendered(request: FastifyRequest, reply: FastifyReply, jpeg: Buffer) {
  for (const { type } of mediaRanges(request.headers.accept)) {
    reply.header('Cache-Control', CACHE);
    if (type === 'image/png') return reply.type('image/png').send(await sharp(jpeg).png().toBuffer());
    if (type === 'image/jpeg' || type === 'image/*' || type === '*/*') return reply.type('image/jpeg').send(jpeg);
  }
  throw new HttpError(406, 'Not Acceptable: rendered pictures are JPEG or PNG');
}

/**
 * WADO-RS (PS3.18 §10.4) over the slides a caller may see: metadata as DICOM JSON, frames as the stored JPEG
 * tiles byte for byte, Part 10 instances, the ICC profile as bulk data, rendered pictures.
 */
export const wadoRoutes: FastifyPluginAsync<Deps> = async (app, { access, search }) => {
  app.get<{ Params: { study: string } }>('/studies/:study/metadata', async (request, reply) => {
    const rows = await search.series(request.caller, [inStudy(request.params.study)], 10_000, 0);
    if (rows.length === 0) throw HttpError.notFound();
    const slides = await Promise.all(rows.map((row) => access.load(row)));
    return sendJson(
      reply,
      slides.flatMap((slide) => slide.instances.map((instance) => metadata(request, instance))),
    );
  });

  app.get<{ Params: Omit<Uids, 'instance'> }>(`${SERIES}/metadata`, async (request, reply) => {
    const slide = await seriesOf(access, request, request.params);
    return sendJson(
      reply,
      slide.instances.map((instance) => metadata(request, instance)),
    );
  });

  app.get<{ Params: Uids }>(`${INSTANCE}/metadata`, async (request, reply) => {
    const { instance } = await instanceOf(access, request, request.params);
    return sendJson(reply, [metadata(request, instance)]);
  });

  app.get<{ Params: Uids & { frames: string } }>(
    `${INSTANCE}/frames/:frames`,
    // A viewer asks for hundreds of frames a minute: they are logged only when something goes wrong.
    { logLevel: 'warn' },
    async (request, reply) => {
      const { instance } = await instanceOf(access, request, request.params);
      const numbers = frameNumbers(request.params.frames, instance.frameCount);
      const type = framesMediaType(request.headers.accept);
      if (type == null) throw notAcceptable();
      const parts = numbers.map((frame) => ({
        contentType: `${type}; transfer-syntax=${TRANSFER_SYNTAX.jpegBaseline}`,
        body: () => instance.readFrame(frame - 1),
      }));
      const { contentType, body } = multipartRelated(type, parts, `; transfer-syntax=${TRANSFER_SYNTAX.jpegBaseline}`);
      return reply.header('Cache-Control', CACHE).type(contentType).send(body);
    },
  );

  app.get<{ Params: Uids & { frames: string } }>(`${INSTANCE}/frames/:frames/rendered`, async (request, reply) => {
    const { instance } = await instanceOf(access, request, request.params);
    const [frame] = frameNumbers(request.params.frames, instance.frameCount);
    return sendRendered(request, reply, await instance.readFrame(frame! - 1));
  });

  app.get<{ Params: Uids }>(`${INSTANCE}/rendered`, async (request, reply) => {
    const { instance } = await instanceOf(access, request, request.params);
    if (instance.frameCount !== 1) {
      throw new HttpError(400, 'Only single-frame instances (label, overview, thumbnail) are rendered whole');
    }
    return sendRendered(request, reply, await instance.readFrame(0));
  });

  app.get<{ Params: Uids & { '*': string } }>(`${INSTANCE}/bulkdata/*`, async (request, reply) => {
    const { instance } = await instanceOf(access, request, request.params);
    const bytes = bulkDataAt(instance.dataset, request.params['*'].split('/'));
    if (bytes == null) throw HttpError.notFound();
    const { contentType, body } = multipartRelated('application/octet-stream', [
      { contentType: 'application/octet-stream', body: async () => bytes },
    ]);
    return reply.header('Cache-Control', CACHE).type(contentType).send(body);
  });

  app.get<{ Params: Uids }>(INSTANCE, async (request, reply) => {
    const { instance } = await instanceOf(access, request, request.params);
    return sendInstances(request, reply, [instance]);
  });

  app.get<{ Params: Omit<Uids, 'instance'> }>(SERIES, async (request, reply) => {
    const slide = await seriesOf(access, request, request.params);
    return sendInstances(request, reply, slide.instances);
  });
};
