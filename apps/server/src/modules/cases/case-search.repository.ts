import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { CaseOrder } from '@pathology/contract';
import type { Db } from '../../db/client.ts';
import { cases, imageLayers, images } from '../../db/schema/index.ts';
import { SERVABLE_FROM_ORIGINAL } from '../iiif/layer-access.ts';

const ORDER_COLUMNS = { caseNumber: cases.caseNumber, createdAt: cases.createdAt, id: cases.id } as const;

/** Matches are counted exactly up to this many; beyond it the total is reported as capped ("1,000+"). */
export const COUNT_CAP = 1000;

/** Match sets up to this size are sorted whole rather than read along an index (see findPage). */
const SORT_IN_MEMORY = 1500;

export type CaseRow = {
  id: string;
  caseNumber: string;
  organizationId: string;
  organizationName: string;
  intendedOwnerOrganizationId: string | null;
  organ: string | null;
  specimenType: string | null;
  diagnosis: string | null;
  tags: string[];
  isPublic: boolean;
  /** As PostgreSQL prints it; drizzle leaves raw query timestamps as text. */
  createdAt: string;
  numberOfAttachments: number;
  numberOfComments: number;
};

export type ImageRow = {
  id: string;
  caseId: string;
  filename: string;
  displayName: string;
  status: string;
  organ: string | null;
  modelName: string | null;
  specimenType: string | null;
  imageTags: string[];
  magnification: number | null;
  size: number;
  /** As PostgreSQL prints it; drizzle leaves raw query timestamps as text. */
  createdAt: string;
  commentCount: number;
  annotationCount: number;
  viewable: boolean;
  conversionProgress: number | null;
};

export type LabelRow = {
  id: string;
  caseId: string | null;
  imageId: string | null;
  visibilityType: 'private' | 'public';
  labelName: string;
};

export type PredictionRow = {
  imageId: string;
  status: string;
  modelName: string;
  result: unknown;
  progressDone: number;
  progressTotal: number;
};

export function createCaseSearchRepository(db: Db) {
  return {
    /**
     * One page of matching case ids in order, and how many match in all. One scan gathers the
     * matches, up to SORT_IN_MEMORY: a small match set is counted and sorted whole from it; a large
     * one is then read along the order's index. The planner cannot tell these apart by itself: a
     * selective filter whose matches are all old (case numbers of one year) would otherwise walk
     * most of the index, and a broad one would sort every match.
     */
    async findPage(where: SQL, order: CaseOrder, page: number, limit: number) {
      const offset = (page - 1) * limit;
      const dir = order.direction === 'asc' ? sql`ASC` : sql`DESC`;
      // MATERIALIZED keeps PostgreSQL from folding the set back into one plan with the index walk.
      const { rows: gathered } = await db.execute<{ matched: number; ids: string[] }>(sql`
        WITH small AS MATERIALIZED (
          SELECT ${cases.id} AS id, ${ORDER_COLUMNS[order.field]} AS sort_key FROM ${cases} WHERE ${where}
          LIMIT ${SORT_IN_MEMORY + 1})
        SELECT (SELECT count(*)::int FROM small) AS matched,
          ARRAY(SELECT id FROM small ORDER BY sort_key ${dir}, id ${dir} LIMIT ${limit} OFFSET ${offset}) AS ids`);
      const matched = gathered[0]?.matched ?? 0;
      const totals = { total: Math.min(matched, COUNT_CAP), totalCapped: matched > COUNT_CAP };
      if (matched <= SORT_IN_MEMORY) return { ids: gathered[0]?.ids ?? [], ...totals };
      const direction = order.direction === 'asc' ? asc : desc;
      const rows = await db
        .select({ id: cases.id })
        .from(cases)
        .where(where)
        // The id breaks ties so pages never overlap or skip a case.
        .orderBy(direction(ORDER_COLUMNS[order.field]), direction(cases.id))
        .limit(limit)
        .offset(offset);
      return { ids: rows.map((row) => row.id), ...totals };
    },

    async findCases(ids: readonly string[]): Promise<CaseRow[]> {
      const { rows } = await db.execute<CaseRow>(sql`
        SELECT c.id, c.case_number AS "caseNumber", c.owner_organization_id AS "organizationId",
          o.name AS "organizationName", c.intended_owner_organization_id AS "intendedOwnerOrganizationId",
          c.organ, c.specimen_type AS "specimenType", c.diagnosis, c.tags, c.is_public AS "isPublic",
          c.created_at AS "createdAt",
          (SELECT count(*)::int FROM attachments a WHERE a.case_id = c.id) AS "numberOfAttachments",
          (SELECT count(*)::int FROM comments m WHERE m.case_id = c.id) AS "numberOfComments"
        FROM cases c JOIN organizations o ON o.id = c.owner_organization_id
        WHERE c.id = ANY(${sql.param([...ids])}::uuid[])`);
      return rows;
    },

    /** Images of the cases with the counts a list row shows; drawings count when the caller may see them. */
    async findImages(caseIds: readonly string[], accountId: string): Promise<ImageRow[]> {
      const { rows } = await db.execute<ImageRow>(sql`
        SELECT i.id, i.case_id AS "caseId", i.filename, i.display_name AS "displayName", i.status, i.organ,
          i.model_name AS "modelName", i.specimen_type AS "specimenType", i.image_tags AS "imageTags",
          i.magnification, i.size::float8 AS size, i.created_at AS "createdAt",
          (SELECT count(*)::int FROM comments m WHERE m.image_id = i.id) AS "commentCount",
          (SELECT count(*)::int FROM drawings d WHERE d.image_id = i.id
             AND (d.visibility = 'public' OR d.account_id = ${accountId})) AS "annotationCount",
          -- As the image's own answer (image-view.ts): available, or served from its original while it converts.
          (i.status = 'available' OR EXISTS (SELECT 1 FROM ${imageLayers} JOIN ${images} ON ${images.id} = ${imageLayers.imageId}
             WHERE ${images.id} = i.id AND ${SERVABLE_FROM_ORIGINAL})) AS viewable,
          CASE WHEN i.status IN ('uploaded', 'processing') THEN i.conversion_progress END AS "conversionProgress"
        FROM images i
        WHERE i.case_id = ANY(${sql.param([...caseIds])}::uuid[])
        ORDER BY i.display_name, i.id`);
      return rows;
    },

    /** Public labels, and the caller's own private ones, on the cases and on their images. */
    async findLabels(caseIds: readonly string[], accountId: string): Promise<LabelRow[]> {
      const ids = sql.param([...caseIds]);
      const { rows } = await db.execute<LabelRow>(sql`
        SELECT l.id, l.case_id AS "caseId", l.image_id AS "imageId", l.visibility_type AS "visibilityType",
          l.label_name AS "labelName"
        FROM labelleds l
        WHERE (l.case_id = ANY(${ids}::uuid[])
            -- ARRAY(...) is computed once, so both sides stay indexable (BitmapOr of the two label indexes).
            OR l.image_id = ANY(ARRAY(SELECT i.id FROM images i WHERE i.case_id = ANY(${ids}::uuid[]))))
          AND (l.visibility_type = 'public' OR l.account_id = ${accountId})
        ORDER BY l.created_at, l.id`);
      return rows;
    },

    async findPredictions(imageIds: readonly string[]): Promise<PredictionRow[]> {
      if (imageIds.length === 0) return [];
      const { rows } = await db.execute<PredictionRow>(sql`
        SELECT p.image_id AS "imageId", p.status, p.model_name AS "modelName",
          p.progress_done AS "progressDone", p.progress_total AS "progressTotal",
          CASE WHEN p.status = 'completed' THEN p.result END AS result
        FROM predictions p WHERE p.image_id = ANY(${sql.param([...imageIds])}::uuid[])
        ORDER BY p.created_at`);
      return rows;
    },

    /** Distinct tags of the given cases' scope, most used first (suggestions in the search dialog). */
    async findTags(where: SQL, column: 'tags' | 'imageTags', limit: number): Promise<string[]> {
      const source =
        column === 'tags'
          ? sql`SELECT unnest(cases.tags) AS tag FROM cases WHERE ${where}`
          : sql`SELECT unnest(images.image_tags) AS tag FROM images JOIN cases ON cases.id = images.case_id WHERE ${where}`;
      const { rows } = await db.execute<{ tag: string }>(
        sql`SELECT tag FROM (${source}) t GROUP BY tag ORDER BY count(*) DESC, tag LIMIT ${limit}`,
      );
      return rows.map((row) => row.tag);
    },
  };
}

export type CaseSearchRepository = ReturnType<typeof createCaseSearchRepository>;
