import {
  CaseOrderSchema,
  CASE_VISIBILITY_FILTERS,
  DEFAULT_PAGE_SIZE,
  SearchExpressionSchema,
  type CaseOrder,
  type CaseSearchRequest,
  type SearchExpression,
} from '@pathology/contract';
import { z } from 'zod';

/**
 * Everything that decides which cases the list shows, as it lives in the URL (part 1 §5: page and
 * limit at least 1, query and order as JSON) so reload, back/forward and shared links agree.
 */
export interface CaseListSearch {
  page: number;
  limit: number;
  query: SearchExpression[];
  order: CaseOrder;
  starred: boolean;
  publicLabel: string | undefined;
  visibility: (typeof CASE_VISIBILITY_FILTERS)[number];
}

export const DEFAULT_ORDER: CaseOrder = { field: 'createdAt', direction: 'desc' };

export const DEFAULT_LIST_SEARCH: CaseListSearch = {
  page: 1,
  limit: DEFAULT_PAGE_SIZE,
  query: [],
  order: DEFAULT_ORDER,
  starred: false,
  publicLabel: undefined,
  visibility: 'all',
};

function positiveInt(text: string | null, fallback: number): number {
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 ? value : fallback;
}

function json<T>(text: string | null, schema: z.ZodType<T>, fallback: T): T {
  if (text == null) return fallback;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

/** Reads a list search from URL parameters; anything malformed falls back to its default, never throws. */
export function readListSearch(params: URLSearchParams, defaults: Partial<CaseListSearch> = {}): CaseListSearch {
  const base = { ...DEFAULT_LIST_SEARCH, ...defaults };
  const visibility = params.get('visibility');
  return {
    page: positiveInt(params.get('page'), base.page),
    limit: positiveInt(params.get('limit'), base.limit),
    query: json(params.get('query'), z.array(SearchExpressionSchema), base.query),
    order: json(params.get('order'), CaseOrderSchema, base.order),
    starred: params.get('starred') === 'true' || (params.get('starred') == null && base.starred),
    publicLabel: params.get('publicLabel') ?? base.publicLabel,
    visibility: CASE_VISIBILITY_FILTERS.find((value) => value === visibility) ?? base.visibility,
  };
}

/** The URL parameters of a list search; defaults are left out to keep links short. */
export function writeListSearch(search: CaseListSearch): URLSearchParams {
  const params = new URLSearchParams();
  if (search.page !== 1) params.set('page', String(search.page));
  params.set('limit', String(search.limit));
  if (search.query.length > 0) params.set('query', JSON.stringify(search.query));
  params.set('order', JSON.stringify(search.order));
  if (search.starred) params.set('starred', 'true');
  if (search.publicLabel != null) params.set('publicLabel', search.publicLabel);
  if (search.visibility !== 'all') params.set('visibility', search.visibility);
  return params;
}

/** The body of POST cases/search for a list search. */
export function toSearchRequest(search: CaseListSearch): CaseSearchRequest {
  return {
    query: search.query,
    order: search.order,
    page: search.page,
    limit: search.limit,
    starred: search.starred,
    visibility: search.visibility,
    ...(search.publicLabel != null ? { publicLabel: search.publicLabel } : {}),
  };
}

/** Whether the search narrows the list beyond an id lookup (the case detail then offers edit-search and reset). */
export function hasFilters(search: CaseListSearch): boolean {
  return (
    search.query.some((expression) => expression.field !== 'id') ||
    search.starred ||
    search.publicLabel != null ||
    search.visibility !== 'all'
  );
}
