import { z } from 'zod';
import { ImageStatusSchema } from '../domain/images.ts';
import { PredictionStatusSchema } from '../domain/predictions.ts';
import { PredictionProgressSchema } from './predictions.ts';
import { CaseCapabilitiesSchema } from './capabilities.ts';

/** Search fields of part 1 §3. The image fields match a case through any of its images. */
export const CASE_SEARCH_FIELDS = [
  'id',
  'organizationId',
  'caseNumber',
  'organ',
  'specimenType',
  'diagnosis',
  'grossFindings',
  'microscopicFindings',
  'comments',
  'tags',
  'displayName',
  'modelName',
  'imageTags',
] as const;
export const CaseSearchFieldSchema = z.enum(CASE_SEARCH_FIELDS);
export type CaseSearchField = z.infer<typeof CaseSearchFieldSchema>;

/** Fields that live on images: a case matches when one of its images does. */
export const IMAGE_SEARCH_FIELDS = ['organ', 'specimenType', 'displayName', 'modelName', 'imageTags'] as const;

export const SEARCH_OPERATORS = [
  'is',
  'is-not',
  'is-like',
  'is-greater-than',
  'is-empty',
  'is-not-empty',
  'contains-any',
  'contains-all',
] as const;
export const SearchOperatorSchema = z.enum(SEARCH_OPERATORS);
export type SearchOperator = z.infer<typeof SearchOperatorSchema>;

/** The wildcard users type; it matches any run of characters. */
export const SEARCH_WILDCARD = '*';

export const SearchExpressionSchema = z.object({
  field: CaseSearchFieldSchema,
  operator: SearchOperatorSchema,
  /** A text, or a list for contains-any / contains-all; absent for is-empty / is-not-empty. */
  value: z.union([z.string(), z.array(z.string())]).optional(),
});
export type SearchExpression = z.infer<typeof SearchExpressionSchema>;

export const CASE_ORDER_FIELDS = ['caseNumber', 'createdAt', 'id'] as const;
export const CaseOrderSchema = z.object({
  field: z.enum(CASE_ORDER_FIELDS),
  direction: z.enum(['asc', 'desc']),
});
export type CaseOrder = z.infer<typeof CaseOrderSchema>;

/** Super users may narrow the list by case visibility. */
export const CASE_VISIBILITY_FILTERS = ['all', 'private', 'public'] as const;

export const CaseSearchRequestSchema = z.object({
  query: z.array(SearchExpressionSchema).default([]),
  order: CaseOrderSchema.default({ field: 'createdAt', direction: 'desc' }),
  page: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(500).default(10),
  visibility: z.enum(CASE_VISIBILITY_FILTERS).default('all'),
  /** Only cases the caller starred (private label). */
  starred: z.boolean().default(false),
  /** Only cases carrying this public label on the case or one of its images. */
  publicLabel: z.string().optional(),
});
export type CaseSearchRequest = z.input<typeof CaseSearchRequestSchema>;

export const LabelledSchema = z.object({ id: z.uuid(), labelName: z.string() });

export const PredictionSummarySchema = z.object({
  status: PredictionStatusSchema,
  modelName: z.string(),
  /** Label names found positive; empty for a completed prediction without findings (negative). */
  parsedResult: z.array(z.string()),
  progress: PredictionProgressSchema,
});

/** An image as shown in a case-list row (part 1 §3 "Case-list image"). */
export const CaseListImageSchema = z.object({
  id: z.uuid(),
  filename: z.string(),
  displayName: z.string(),
  status: ImageStatusSchema,
  organ: z.string().nullable(),
  modelName: z.string().nullable(),
  specimenType: z.string().nullable(),
  imageTags: z.array(z.string()),
  magnification: z.number().nullable(),
  predictionSummary: z.array(PredictionSummarySchema),
  /** The caller's own star on this image, if any. */
  privateLabelled: LabelledSchema.nullable(),
  publicLabelleds: z.array(LabelledSchema),
  commentCount: z.number(),
  annotationCount: z.number(),
  /** Whether a viewer can open it now: available, or still converting and served from its original meanwhile. */
  viewable: z.boolean(),
  /** Percent done of the running conversion (0–100), as on the image; null when none runs. */
  conversionProgress: z.number().int().min(0).max(100).nullable(),
  size: z.number(),
  createdAt: z.iso.datetime(),
});
export type CaseListImage = z.infer<typeof CaseListImageSchema>;

export const CaseListItemSchema = z.object({
  id: z.uuid(),
  caseNumber: z.string(),
  organizationId: z.uuid(),
  organizationName: z.string(),
  intendedOwnerOrganizationId: z.uuid().nullable(),
  organ: z.string().nullable(),
  specimenType: z.string().nullable(),
  diagnosis: z.string().nullable(),
  tags: z.array(z.string()),
  isPublic: z.boolean(),
  createdAt: z.iso.datetime(),
  numberOfImages: z.number(),
  numberOfAttachments: z.number(),
  numberOfComments: z.number(),
  imageStatusCounts: z.record(ImageStatusSchema, z.number()),
  privateLabelled: LabelledSchema.nullable(),
  publicLabelleds: z.array(LabelledSchema),
  images: z.array(CaseListImageSchema),
  userCapabilities: CaseCapabilitiesSchema,
});
export type CaseListItem = z.infer<typeof CaseListItemSchema>;

export const CaseSearchResponseSchema = z.object({
  data: z.array(CaseListItemSchema),
  /** Exact up to 1,000 matches; beyond that 1,000 with `totalCapped` (shown as "1,000+"), since an exact count of a broad match costs a full scan. */
  total: z.number(),
  totalCapped: z.boolean(),
});
export type CaseSearchResponse = z.infer<typeof CaseSearchResponseSchema>;

export const TagListSchema = z.object({ data: z.array(z.string()) });

/** Labels a case or image now carries (public ones, and the caller's own star). */
export const LabelledListSchema = z.object({ data: z.array(LabelledSchema) });
