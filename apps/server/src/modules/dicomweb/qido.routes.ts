import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SQL } from 'drizzle-orm';
import { toDicomJson, type DicomJson } from '../../imaging/dicom-write-json.ts';
import type { DicomDataset } from '../../imaging/dicom-write.ts';
import { seriesAttributes, studyAttributes, type StudyFacts } from './dicom-attributes.ts';
import type { DicomAccess } from './dicom-access.ts';
import type { DicomSearch, StudyRow } from './dicom-search.ts';
import type { SlideInstance, SlideRow } from './dicom-slide.ts';
import {
  ignoredWarning,
  inStudy,
  matches,
  ofSeries,
  parseQidoQuery,
  qidoConditions,
  type QidoQuery,
} from './qido-query.ts';

interface Deps {
  access: DicomAccess;
  search: DicomSearch;
}

type Query = Record<string, string | string[] | undefined>;

/** Attributes a study result gives (PS3.18 §10.6.3.3.1), from the case alone. */
const STUDY_RESULT = [
  '00080020',
  '00080030',
  '00080050',
  '00080090',
  '00081030',
  '00100010',
  '00100020',
  '00100030',
  '00100040',
  '0020000D',
  '00200010',
];
const SERIES_RESULT = ['00080060', '0008103E', '0020000E', '00200011'];
const INSTANCE_RESULT = [
  '00080016',
  '00080018',
  '00080008',
  '00200013',
  '00280008',
  '00280010',
  '00280011',
  '00480006',
  '00480007',
];

function pick(dataset: DicomDataset, tags: readonly string[]): DicomDataset {
  return Object.fromEntries(tags.filter((tag) => dataset[tag] != null).map((tag) => [tag, dataset[tag]!]));
}

const noBulk = () => '';
const CHARACTER_SET: DicomDataset = { '00080005': { vr: 'CS', values: ['ISO_IR 192'] } };

function studyFacts(row: Pick<StudyRow, 'caseId' | 'caseNumber' | 'organ' | 'specimenType'>): StudyFacts {
  return { caseId: row.caseId, caseNumber: row.caseNumber, organ: row.organ, specimenType: row.specimenType };
}

function studyResult(row: StudyRow): DicomJson {
  return toDicomJson(
    {
      ...CHARACTER_SET,
      ...pick(studyAttributes(studyFacts(row)), STUDY_RESULT),
      '00080061': { vr: 'CS', values: ['SM'] },
      '00201206': { vr: 'IS', values: [row.seriesCount] },
    },
    noBulk,
  );
}

function seriesDataset(row: SlideRow): DicomDataset {
  const study = studyFacts(row);
  const slide = {
    imageId: row.imageId,
    displayName: row.displayName,
    acquiredAt: row.createdAt,
    magnification: null,
    imagedSize: null,
  };
  return {
    ...CHARACTER_SET,
    ...pick(studyAttributes(study), STUDY_RESULT),
    ...pick(seriesAttributes(study, slide), SERIES_RESULT),
  };
}

function send(reply: FastifyReply, query: QidoQuery, results: DicomJson[]): FastifyReply {
  const warning = ignoredWarning(query);
  if (warning != null) reply.header('Warning', warning);
  return reply
    .header('Cache-Control', 'private, no-cache')
    .type('application/dicom+json')
    .send(JSON.stringify(results));
}

/**
 * QIDO-RS (PS3.18 §10.6) over the slides a caller may see: a case is a study (its case number the accession
 * number), a converted slide a series, its levels and pictures the instances. Invisible cases never appear.
 */
export const qidoRoutes: FastifyPluginAsync<Deps> = async (app, { access, search }) => {
  async function studies(request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply) {
    const query = parseQidoQuery(request.query);
    const rows = await search.studies(request.caller, qidoConditions(query), query.limit, query.offset);
    return send(reply, query, rows.map(studyResult));
  }

  async function series(request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply, scope: SQL[]) {
    const query = parseQidoQuery(request.query);
    const rows = await search.series(request.caller, [...scope, ...qidoConditions(query)], query.limit, query.offset);
    return send(
      reply,
      query,
      rows.map((row) => toDicomJson(seriesDataset(row), noBulk)),
    );
  }

  /** Instance keys are matched on the loaded instances, a series at a time, until the page is full. */
  async function instances(request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply, scope: SQL[]) {
    const query = parseQidoQuery(request.query);
    const rows = await search.series(request.caller, [...scope, ...qidoConditions(query)], 10_000, 0);
    const found: DicomJson[] = [];
    let skipped = 0;
    const wanted = (instance: SlideInstance) =>
      ['00080018', '00080016', '00200013'].every((tag) => {
        const value = query.keys.get(tag);
        return (
          value == null || matches(String(instance.dataset[tag]?.values?.[0] ?? ''), value, false, tag !== '00200013')
        );
      });
    for (const row of rows) {
      if (found.length >= query.limit) break;
      const slide = await access.load(row);
      for (const instance of slide.instances.filter(wanted)) {
        if (skipped++ < query.offset) continue;
        if (found.length >= query.limit) break;
        const dataset = { ...seriesDataset(row), ...pick(instance.dataset, INSTANCE_RESULT) };
        found.push(toDicomJson(dataset, noBulk));
      }
    }
    return send(reply, query, found);
  }

  type StudyParams = { Params: { study: string }; Querystring: Query };
  type SeriesParams = { Params: { study: string; series: string }; Querystring: Query };
  app.get<{ Querystring: Query }>('/studies', studies);
  app.get<{ Querystring: Query }>('/series', (request, reply) => series(request, reply, []));
  app.get<StudyParams>('/studies/:study/series', (request, reply) =>
    series(request, reply, [inStudy(request.params.study)]),
  );
  app.get<{ Querystring: Query }>('/instances', (request, reply) => instances(request, reply, []));
  app.get<StudyParams>('/studies/:study/instances', (request, reply) =>
    instances(request, reply, [inStudy(request.params.study)]),
  );
  app.get<SeriesParams>('/studies/:study/series/:series/instances', (request, reply) =>
    instances(request, reply, [inStudy(request.params.study), ofSeries(request.params.series)]),
  );
};
