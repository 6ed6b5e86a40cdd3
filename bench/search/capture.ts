import { CaseSearchRequestSchema, type CaseSearchRequest } from '@pathology/contract';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Caller } from '../../apps/server/src/auth/caller.ts';
import { createAccessRepository, createCapabilitiesService } from '../../apps/server/src/auth/capabilities/index.ts';
import * as schema from '../../apps/server/src/db/schema/index.ts';
import { createCaseSearchRepository } from '../../apps/server/src/modules/cases/case-search.repository.ts';
import { createCaseSearchService } from '../../apps/server/src/modules/cases/case-search.service.ts';

export interface CapturedQuery {
  sql: string;
  params: unknown[];
}

export interface SearchQueries {
  /** The page of ids: WHERE, ORDER BY, LIMIT/OFFSET (the count statement too, if one statement does both). */
  page: CapturedQuery;
  /** count(*) over the same WHERE. */
  count: CapturedQuery;
  /** Everything else one search runs: case rows, images, labels, capabilities, predictions. */
  others: CapturedQuery[];
}

/**
 * The SQL one search request sends, taken from the real service and repository over a drizzle
 * instance with a query logger (same schema and casing as createDatabase), so the plans explained
 * are those of exactly the statements the route runs.
 */
export function createQueryCapture(pool: pg.Pool) {
  let captured: CapturedQuery[] = [];
  const db = drizzle(pool, {
    schema,
    casing: 'snake_case',
    logger: { logQuery: (sql, params) => captured.push({ sql, params }) },
  });
  const service = createCaseSearchService({
    repository: createCaseSearchRepository(db),
    capabilities: createCapabilitiesService(createAccessRepository(db)),
  });
  return async (caller: Caller, body: CaseSearchRequest): Promise<SearchQueries> => {
    captured = [];
    await service.search(caller, CaseSearchRequestSchema.parse(body));
    const fromCases = (query: CapturedQuery) => /\bfrom "cases"/i.test(query.sql);
    const count = captured.find((query) => fromCases(query) && /count\(\*\)/i.test(query.sql));
    // A repository may fetch the page and the count in one statement; then both name it.
    const page = captured.find((query) => query !== count && fromCases(query) && /\blimit\b/i.test(query.sql)) ?? count;
    if (count == null || page == null) throw new Error('the search did not send a page and a count query');
    return { page, count, others: captured.filter((query) => query !== page && query !== count) };
  };
}
