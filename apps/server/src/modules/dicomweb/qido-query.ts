import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { cases, images } from '../../db/schema/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { uuidOfUid } from './dicom-uids.ts';

/** The search keys we answer, by keyword, with their tags (QIDO-RS accepts either). */
const KEYWORDS: Record<string, string> = {
  StudyInstanceUID: '0020000D',
  StudyDate: '00080020',
  StudyTime: '00080030',
  AccessionNumber: '00080050',
  ModalitiesInStudy: '00080061',
  ReferringPhysicianName: '00080090',
  StudyDescription: '00081030',
  PatientName: '00100010',
  PatientID: '00100020',
  PatientBirthDate: '00100030',
  PatientSex: '00100040',
  StudyID: '00200010',
  SeriesInstanceUID: '0020000E',
  Modality: '00080060',
  SeriesDescription: '0008103E',
  SeriesNumber: '00200011',
  SOPInstanceUID: '00080018',
  SOPClassUID: '00080016',
  InstanceNumber: '00200013',
};
const TAGS = new Set(Object.values(KEYWORDS));
/** Attributes every one of our studies holds empty: a query for a value there matches nothing. */
const ALWAYS_EMPTY = new Set(['00080020', '00080030', '00080090', '00100010', '00100030', '00100040']);
const CONTROL = new Set(['limit', 'offset', 'fuzzymatching', 'includefield']);

const MAX_LIMIT = 1000;

export interface QidoQuery {
  /** Matching values by tag; an empty string matches anything. */
  keys: Map<string, string>;
  fuzzy: boolean;
  limit: number;
  offset: number;
  /** Keys we do not search on, named in the Warning header as the standard asks. */
  ignored: string[];
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value == null || value === '') return fallback;
  if (!/^\d+$/.test(value)) throw new HttpError(400, `${name} must be a whole number`);
  return Number(value);
}

/** The query string of a QIDO-RS search: keys by keyword or tag, `limit`, `offset`, `fuzzymatching`, `includefield`. */
export function parseQidoQuery(query: Record<string, string | string[] | undefined>): QidoQuery {
  const keys = new Map<string, string>();
  const ignored: string[] = [];
  let fuzzy = false;
  let limit = MAX_LIMIT;
  let offset = 0;
  for (const [name, raw] of Object.entries(query)) {
    const value = (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).trim();
    if (CONTROL.has(name)) {
      if (name === 'fuzzymatching') fuzzy = value === 'true';
      if (name === 'limit') limit = Math.min(MAX_LIMIT, integer(value, MAX_LIMIT, name));
      if (name === 'offset') offset = integer(value, 0, name);
      continue;
    }
    const tag = KEYWORDS[name] ?? (TAGS.has(name.toUpperCase()) ? name.toUpperCase() : null);
    if (tag == null) ignored.push(name);
    else keys.set(tag, value);
  }
  return { keys, fuzzy, limit, offset, ignored };
}

/** Whether a stored value matches a QIDO-RS value: UID lists, `*` and `?` wildcards, case-blind when fuzzy. */
export function matches(stored: string | null, wanted: string, fuzzy: boolean, uidList = false): boolean {
  if (wanted === '' || wanted === '*') return true;
  if (stored == null || stored === '') return false;
  if (uidList) return wanted.split(/[\\,]/).some((uid) => uid.trim() === stored);
  const flags = fuzzy ? 'i' : '';
  if (!/[*?]/.test(wanted)) return fuzzy ? stored.toLowerCase() === wanted.toLowerCase() : stored === wanted;
  const pattern = wanted
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${pattern}$`, `s${flags}`).test(stored);
}

/** A QIDO-RS value as a SQL condition on a text expression (LIKE for wildcards, ILIKE when fuzzy). */
function textCondition(column: SQL, wanted: string, fuzzy: boolean): SQL | undefined {
  if (wanted === '' || wanted === '*') return undefined;
  if (!/[*?]/.test(wanted)) return fuzzy ? sql`lower(${column}) = lower(${wanted})` : sql`${column} = ${wanted}`;
  const like = wanted
    .replace(/[\\%_]/g, '\\$&')
    .replace(/\*/g, '%')
    .replace(/\?/g, '_');
  return fuzzy ? sql`${column} ILIKE ${like}` : sql`${column} LIKE ${like}`;
}

function uuids(list: string): string[] {
  return list
    .split(/[\\,]/)
    .map((uid) => uuidOfUid(uid))
    .filter((id): id is string => id != null);
}

const NOTHING = sql`false`;

/** The SQL conditions of the study and series keys; instance keys are matched on the instances themselves. */
export function qidoConditions(query: QidoQuery): SQL[] {
  const conditions: (SQL | undefined)[] = [];
  const { keys, fuzzy } = query;
  const caseNumber = sql`${cases.caseNumber}`;
  for (const [tag, wanted] of keys) {
    if (wanted === '' || wanted === '*') continue;
    switch (tag) {
      case '0020000D':
        conditions.push(uuids(wanted).length === 0 ? NOTHING : inArray(cases.id, uuids(wanted)));
        break;
      case '0020000E':
        conditions.push(uuids(wanted).length === 0 ? NOTHING : inArray(images.id, uuids(wanted)));
        break;
      case '00080050':
      case '00100020':
        conditions.push(textCondition(caseNumber, wanted, fuzzy));
        break;
      case '00200010':
        conditions.push(textCondition(caseNumber, wanted, fuzzy), sql`length(${cases.caseNumber}) <= 16`);
        break;
      case '00081030':
        conditions.push(
          textCondition(sql`concat_ws(', ', ${cases.organ}, ${cases.specimenType}::text)`, wanted, fuzzy),
        );
        break;
      case '0008103E':
        conditions.push(textCondition(sql`left(${images.displayName}, 64)`, wanted, fuzzy));
        break;
      case '00080060':
      case '00080061':
        if (!wanted.split(/[\\,]/).some((modality) => matches('SM', modality.trim(), fuzzy))) conditions.push(NOTHING);
        break;
      case '00200011':
        if (wanted !== '1') conditions.push(NOTHING);
        break;
      default:
        if (ALWAYS_EMPTY.has(tag)) conditions.push(NOTHING);
    }
  }
  return conditions.filter((condition): condition is SQL => condition != null);
}

/** The Warning header for keys we did not search on, or null when every key was used. */
export function ignoredWarning(query: QidoQuery): string | null {
  return query.ignored.length === 0
    ? null
    : `299 pathology-slides "The fields ${query.ignored.join(', ')} are not supported"`;
}

/** A series of the given study only: its image must be of the study's case. */
export function inStudy(studyUid: string): SQL {
  const caseId = uuidOfUid(studyUid);
  return caseId == null ? NOTHING : eq(cases.id, caseId);
}

export const ofSeries = (seriesUid: string): SQL => {
  const imageId = uuidOfUid(seriesUid);
  return imageId == null ? NOTHING : eq(images.id, imageId);
};
