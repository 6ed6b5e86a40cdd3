import { and, sql, type SQL } from 'drizzle-orm';
import {
  CaseSearchRequestSchema,
  DEFAULT_PREDICTION_THRESHOLD,
  IMAGE_STATUSES,
  PredictionResultSchema,
  type CaseListImage,
  type CaseListItem,
  type CaseSearchResponse,
  type ImageStatus,
  type PredictionStatus,
} from '@pathology/contract';
import type { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import { visibleCasesCondition, type CapabilitiesService } from '../../auth/capabilities/index.ts';
import { cases } from '../../db/schema/index.ts';
import { queryCondition } from './case-search.query.ts';
import type { CaseSearchRepository, ImageRow, LabelRow, PredictionRow } from './case-search.repository.ts';

type SearchRequest = z.output<typeof CaseSearchRequestSchema>;

interface Deps {
  repository: CaseSearchRepository;
  capabilities: Pick<CapabilitiesService, 'getManyCaseCapabilities'>;
}

const TAG_SUGGESTIONS = 500;

/** Labels on the case or on any of its images (starred / public-label filters of the list screen). */
function hasLabel(condition: SQL): SQL {
  // Two indexable halves instead of one OR over a join, which would scan every image.
  return sql`${cases.id} IN (
    SELECT l.case_id FROM labelleds l WHERE l.case_id IS NOT NULL AND ${condition}
    UNION
    SELECT i.case_id FROM labelleds l JOIN images i ON i.id = l.image_id WHERE ${condition})`;
}

/** Label names a completed prediction found in at least one cell above its threshold; empty means negative. */
export function positiveLabels(result: unknown): string[] {
  const parsed = PredictionResultSchema.safeParse(result);
  if (!parsed.success) return [];
  const threshold = parsed.data.threshold ?? DEFAULT_PREDICTION_THRESHOLD;
  const found = new Set<string>();
  for (const cell of Object.values(parsed.data.cells)) {
    for (const [labelId, probability] of Object.entries(cell)) {
      const name = parsed.data.labels[labelId];
      if (name != null && probability >= threshold) found.add(name);
    }
  }
  return [...found].sort();
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

const labelled = (label: LabelRow) => ({ id: label.id, labelName: label.labelName });

function toListImage(image: ImageRow, labels: LabelRow[], predictions: PredictionRow[]): CaseListImage {
  return {
    id: image.id,
    filename: image.filename,
    displayName: image.displayName,
    status: image.status as ImageStatus,
    organ: image.organ,
    modelName: image.modelName,
    specimenType: image.specimenType,
    imageTags: image.imageTags,
    magnification: image.magnification,
    predictionSummary: predictions.map((prediction) => ({
      status: prediction.status as PredictionStatus,
      modelName: prediction.modelName,
      parsedResult: positiveLabels(prediction.result),
      progress: { done: prediction.progressDone, total: prediction.progressTotal },
    })),
    privateLabelled: labels.filter((label) => label.visibilityType === 'private').map(labelled)[0] ?? null,
    publicLabelleds: labels.filter((label) => label.visibilityType === 'public').map(labelled),
    commentCount: image.commentCount,
    annotationCount: image.annotationCount,
    viewable: image.viewable,
    conversionProgress: image.conversionProgress,
    size: image.size,
    createdAt: new Date(image.createdAt).toISOString(),
  };
}

export function createCaseSearchService({ repository, capabilities }: Deps) {
  function scope(caller: Caller, request: SearchRequest): SQL {
    const conditions = [visibleCasesCondition(caller), queryCondition(request.query)];
    if (request.visibility !== 'all') conditions.push(sql`${cases.isPublic} = ${request.visibility === 'public'}`);
    if (request.starred) {
      conditions.push(hasLabel(sql`l.visibility_type = 'private' AND l.account_id = ${caller.accountId}`));
    }
    if (request.publicLabel != null) {
      conditions.push(hasLabel(sql`l.visibility_type = 'public' AND l.label_name = ${request.publicLabel}`));
    }
    return and(...conditions)!;
  }

  return {
    /** POST cases/search: one page of the cases the caller may see that match the query. */
    async search(caller: Caller, request: SearchRequest): Promise<CaseSearchResponse> {
      const { ids, total, totalCapped } = await repository.findPage(
        scope(caller, request),
        request.order,
        request.page,
        request.limit,
      );
      if (ids.length === 0) return { data: [], total, totalCapped };
      const [caseRows, imageRows, labelRows, capabilitiesById] = await Promise.all([
        repository.findCases(ids),
        repository.findImages(ids, caller.accountId),
        repository.findLabels(ids, caller.accountId),
        capabilities.getManyCaseCapabilities(caller, ids),
      ]);
      const predictions = groupBy(
        await repository.findPredictions(imageRows.map((image) => image.id)),
        (p) => p.imageId,
      );
      const imagesByCase = groupBy(imageRows, (image) => image.caseId);
      const labelsByImage = groupBy(
        labelRows.filter((label) => label.imageId != null),
        (label) => label.imageId,
      );
      const caseLabels = groupBy(
        labelRows.filter((label) => label.caseId != null),
        (label) => label.caseId,
      );
      const rowsById = new Map(caseRows.map((row) => [row.id, row]));
      const data = ids.flatMap((id): CaseListItem[] => {
        const row = rowsById.get(id);
        const userCapabilities = capabilitiesById.get(id);
        if (row == null || userCapabilities == null) return [];
        const images = (imagesByCase.get(id) ?? []).map((image) =>
          toListImage(image, labelsByImage.get(image.id) ?? [], predictions.get(image.id) ?? []),
        );
        const imageStatusCounts = Object.fromEntries(IMAGE_STATUSES.map((status) => [status, 0])) as Record<
          ImageStatus,
          number
        >;
        for (const image of images) imageStatusCounts[image.status] += 1;
        const own = caseLabels.get(id) ?? [];
        const star = own.find((label) => label.visibilityType === 'private') ?? null;
        return [
          {
            ...row,
            createdAt: new Date(row.createdAt).toISOString(),
            numberOfImages: images.length,
            imageStatusCounts,
            // The row's star shows when the case or any of its images is starred (part 1 §4).
            privateLabelled: star
              ? labelled(star)
              : (images.find((image) => image.privateLabelled)?.privateLabelled ?? null),
            publicLabelleds: own.filter((label) => label.visibilityType === 'public').map(labelled),
            images,
            userCapabilities: userCapabilities,
          },
        ];
      });
      return { data, total, totalCapped };
    },

    /** Tags used on the cases (or their images) the caller may see, most used first. */
    async tags(caller: Caller, column: 'tags' | 'imageTags'): Promise<string[]> {
      return repository.findTags(visibleCasesCondition(caller), column, TAG_SUGGESTIONS);
    },
  };
}

export type CaseSearchService = ReturnType<typeof createCaseSearchService>;
