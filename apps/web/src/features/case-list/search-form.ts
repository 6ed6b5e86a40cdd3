import { SEARCH_WILDCARD, type CaseSearchField, type SearchExpression } from '@pathology/contract';
import { splitTags } from './list-state.ts';

export const TEXT_FIELDS = [
  'caseNumber',
  'diagnosis',
  'grossFindings',
  'microscopicFindings',
  'comments',
  'displayName',
] as const satisfies readonly CaseSearchField[];
export type TextField = (typeof TEXT_FIELDS)[number];

export const CHOICE_FIELDS = ['organ', 'specimenType', 'modelName'] as const satisfies readonly CaseSearchField[];
export type ChoiceField = (typeof CHOICE_FIELDS)[number];

export type TagsMatch = 'contains-all' | 'contains-any';

/** The case search dialog's values (part 1 §2). */
export type SearchFormValues = Record<TextField, string> &
  Record<ChoiceField, string | null> & { tags: string[]; tagsMatch: TagsMatch; imageTags: string[] };

export const EMPTY_SEARCH_FORM: SearchFormValues = {
  caseNumber: '',
  diagnosis: '',
  grossFindings: '',
  microscopicFindings: '',
  comments: '',
  displayName: '',
  organ: null,
  specimenType: null,
  modelName: null,
  tags: [],
  tagsMatch: 'contains-all',
  imageTags: [],
};

/**
 * A text value as an expression: with an asterisk it is a wildcard match of the whole text ("S26-*"),
 * otherwise the text is found anywhere (is-like).
 */
export function textExpression(field: CaseSearchField, text: string): SearchExpression | undefined {
  const value = text.trim();
  if (value === '') return undefined;
  return { field, operator: value.includes(SEARCH_WILDCARD) ? 'is' : 'is-like', value };
}

/** The dialog's values as query expressions; empty values are dropped (part 1 §5). */
export function formToQuery(values: SearchFormValues): SearchExpression[] {
  const query: SearchExpression[] = [];
  for (const field of TEXT_FIELDS) {
    const expression = textExpression(field, values[field]);
    if (expression) query.push(expression);
  }
  const tags = splitTags(values.tags);
  // With fewer than two tags the match mode means nothing; one tag is always "contains".
  if (tags.length > 0)
    query.push({ field: 'tags', operator: tags.length > 1 ? values.tagsMatch : 'contains-all', value: tags });
  for (const field of CHOICE_FIELDS) {
    const value = values[field];
    if (value) query.push({ field, operator: 'is', value });
  }
  const imageTags = splitTags(values.imageTags);
  if (imageTags.length > 0) query.push({ field: 'imageTags', operator: 'contains-all', value: imageTags });
  return query;
}

function asText(value: SearchExpression['value']): string {
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

function asList(value: SearchExpression['value']): string[] {
  return Array.isArray(value) ? value : splitTags([value ?? '']);
}

/** Fills the dialog from a query (the Edit button); expressions the dialog cannot show are ignored. */
export function queryToForm(query: readonly SearchExpression[]): SearchFormValues {
  const values: SearchFormValues = { ...EMPTY_SEARCH_FORM };
  for (const expression of query) {
    const { field } = expression;
    if ((TEXT_FIELDS as readonly string[]).includes(field)) values[field as TextField] = asText(expression.value);
    else if ((CHOICE_FIELDS as readonly string[]).includes(field))
      values[field as ChoiceField] = asText(expression.value);
    else if (field === 'tags') {
      values.tags = asList(expression.value);
      values.tagsMatch = expression.operator === 'contains-any' ? 'contains-any' : 'contains-all';
    } else if (field === 'imageTags') values.imageTags = asList(expression.value);
  }
  return values;
}

/** Replaces the dialog's part of a query, keeping what the dialog does not edit (the group, an id). */
export function replaceSearchFields(query: readonly SearchExpression[], values: SearchFormValues): SearchExpression[] {
  const kept = query.filter((expression) => expression.field === 'organizationId' || expression.field === 'id');
  return [...kept, ...formToQuery(values)];
}

/** The case-number text filter of the table: replaces only the caseNumber expression. */
export function withCaseNumber(query: readonly SearchExpression[], text: string): SearchExpression[] {
  const rest = query.filter((expression) => expression.field !== 'caseNumber');
  const expression = textExpression('caseNumber', text);
  return expression ? [...rest, expression] : rest;
}
