import type { CaseListSearch } from '../case-navigation/list-search.ts';
import type { SearchExpression } from '@pathology/contract';

/**
 * "All groups" (super users) as a query expression: an empty list, which the server drops as an empty value
 * (part 1 §5), so the list is unscoped; kept in the URL so reloads and shared links still say "all".
 */
export const ALL_ORGANIZATIONS: SearchExpression = { field: 'organizationId', operator: 'contains-any', value: [] };

export type OrganizationScope = { kind: 'default' } | { kind: 'all' } | { kind: 'one'; id: string };

/** Which groups the list's query covers: none named (the current group), all, or one. */
export function organizationScope(query: readonly SearchExpression[]): OrganizationScope {
  const expression = query.find((item) => item.field === 'organizationId');
  if (!expression) return { kind: 'default' };
  const value = Array.isArray(expression.value) ? expression.value[0] : expression.value;
  return value ? { kind: 'one', id: value } : { kind: 'all' };
}

/** The query with its group part replaced: 'all', a group id, or undefined for the current group. */
export function withOrganization(query: readonly SearchExpression[], scope: string | undefined): SearchExpression[] {
  const rest = query.filter((item) => item.field !== 'organizationId');
  if (scope === undefined) return rest;
  if (scope === 'all') return [ALL_ORGANIZATIONS, ...rest];
  return [{ field: 'organizationId', operator: 'is', value: scope }, ...rest];
}

/**
 * The search actually sent: without a group in the URL the list shows the current group; only super users may
 * see all groups, everyone else falls back to the current one.
 */
export function effectiveSearch(
  search: CaseListSearch,
  currentOrganizationId: string | undefined,
  isSuperUser: boolean,
): CaseListSearch {
  const scope = organizationScope(search.query);
  if (scope.kind === 'one' || (scope.kind === 'all' && isSuperUser)) return search;
  return { ...search, query: withOrganization(search.query, currentOrganizationId) };
}

/** Splits tag entries at commas (part 1 §2), trims them and drops blanks and repeats. */
export function splitTags(entries: readonly string[]): string[] {
  const tags = entries.flatMap((entry) => entry.split(',')).map((tag) => tag.trim());
  return [...new Set(tags.filter((tag) => tag !== ''))];
}

/** One entry of the active-filter bar. */
export type FilterChip =
  | { kind: 'field'; field: SearchExpression['field']; text: string; match?: 'all' | 'any' }
  | { kind: 'starred' }
  | { kind: 'publicLabel'; labelName: string }
  | { kind: 'visibility'; visibility: 'private' | 'public' };

function valueText(value: SearchExpression['value']): string {
  if (value === undefined) return '';
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The active filters of a search as shown in the filter bar; the group is left out (the picker shows it). */
export function filterChips(search: CaseListSearch): FilterChip[] {
  const chips: FilterChip[] = search.query
    .filter((item) => item.field !== 'organizationId' && item.field !== 'id' && valueText(item.value).trim() !== '')
    .map((item) => ({
      kind: 'field',
      field: item.field,
      text: valueText(item.value),
      ...(item.operator === 'contains-all' && Array.isArray(item.value) && item.value.length > 1
        ? { match: 'all' as const }
        : item.operator === 'contains-any' && Array.isArray(item.value) && item.value.length > 1
          ? { match: 'any' as const }
          : {}),
    }));
  if (search.starred) chips.push({ kind: 'starred' });
  if (search.publicLabel != null) chips.push({ kind: 'publicLabel', labelName: search.publicLabel });
  if (search.visibility !== 'all') chips.push({ kind: 'visibility', visibility: search.visibility });
  return chips;
}

/** The 1-based range of the page shown ("x-y of total"); `from` is 0 when nothing matched. */
export function pageRange(page: number, limit: number, shown: number): { from: number; to: number } {
  if (shown === 0) return { from: 0, to: 0 };
  const from = (page - 1) * limit + 1;
  return { from, to: from + shown - 1 };
}

/** yyyy-MM-dd in the browser's time zone (part 1 §2, created column). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

type OrderField = 'caseNumber' | 'createdAt';

/** Clicking a sortable header: the same column flips its direction; another starts at its natural direction. */
export function nextOrder(
  current: { field: string; direction: 'asc' | 'desc' },
  field: OrderField,
): { field: OrderField; direction: 'asc' | 'desc' } {
  if (current.field === field) return { field, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { field, direction: field === 'createdAt' ? 'desc' : 'asc' };
}
