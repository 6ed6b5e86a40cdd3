import { and, not, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { SEARCH_WILDCARD, type CaseSearchField, type SearchExpression, type SearchOperator } from '@pathology/contract';
import { cases, images } from '../../db/schema/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';

/** Escapes LIKE's own wildcards so a user's "%" or "_" matches itself. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** "S26-*" → "S26-%": the user's asterisk is the only wildcard. */
export function wildcardToLike(value: string): string {
  return value.split(SEARCH_WILDCARD).map(escapeLike).join('%');
}

const hasWildcard = (value: string) => value.includes(SEARCH_WILDCARD);

/** is-like finds the value anywhere in the text; asterisks inside it still match any run of characters. */
const containsPattern = (value: string) => `%${wildcardToLike(value)}%`;

/** What the compiler needs of an expression; image search has its own field names. */
type Expression = Pick<SearchExpression, 'operator' | 'value'> & { field: string };

/** Drops expressions whose value is empty (part 1 §5), keeping the operators that take none. */
export function dropEmptyExpressions<E extends Expression>(query: readonly E[]): E[] {
  return query.flatMap((expression) => {
    if (expression.operator === 'is-empty' || expression.operator === 'is-not-empty') return [expression];
    const { value } = expression;
    if (Array.isArray(value)) {
      const values = value.map((item) => item.trim()).filter((item) => item !== '');
      return values.length === 0 ? [] : [{ ...expression, value: values }];
    }
    const text = value?.trim() ?? '';
    return text === '' ? [] : [{ ...expression, value: text }];
  });
}

/** A column, or an expression over one (an enum column cast to text, so ILIKE applies to it). */
type Column = AnyColumn | SQL;
/** How a field's values compare: as text, as ids, or as a text[] of tags. */
export type SearchKind = 'text' | 'uuid' | 'array';
type Kind = SearchKind;

interface FieldPlan {
  kind: Kind;
  /** The case's own column, if the field lives on the case. */
  caseColumn?: Column;
  /** The image column, for fields matched through the case's images. */
  imageColumn?: Column;
}

const FIELDS: Record<CaseSearchField, FieldPlan> = {
  id: { kind: 'uuid', caseColumn: cases.id },
  organizationId: { kind: 'uuid', caseColumn: cases.ownerOrganizationId },
  caseNumber: { kind: 'text', caseColumn: cases.caseNumber },
  diagnosis: { kind: 'text', caseColumn: cases.diagnosis },
  grossFindings: { kind: 'text', caseColumn: cases.grossFindings },
  microscopicFindings: { kind: 'text', caseColumn: cases.microscopicFindings },
  comments: { kind: 'text', caseColumn: cases.comments },
  tags: { kind: 'array', caseColumn: cases.tags },
  // Organ and specimen type are recorded on the case and on each image; either may match.
  organ: { kind: 'text', caseColumn: cases.organ, imageColumn: images.organ },
  // An enum compares as text, so ILIKE works and an unknown value matches nothing instead of failing the cast.
  specimenType: {
    kind: 'text',
    caseColumn: sql`${cases.specimenType}::text`,
    imageColumn: sql`${images.specimenType}::text`,
  },
  displayName: { kind: 'text', imageColumn: images.displayName },
  modelName: { kind: 'text', imageColumn: images.modelName },
  imageTags: { kind: 'array', imageColumn: images.imageTags },
};

const OPERATORS: Record<Kind, readonly SearchOperator[]> = {
  text: ['is', 'is-not', 'is-like', 'is-greater-than', 'is-empty', 'is-not-empty', 'contains-any'],
  uuid: ['is', 'is-not', 'contains-any'],
  array: ['is', 'is-not', 'is-like', 'is-empty', 'is-not-empty', 'contains-any', 'contains-all'],
};

/** Operators that say what must NOT be there: over images they mean "no image matches the positive form". */
const NEGATIONS: Partial<Record<SearchOperator, PositiveOperator>> = { 'is-not': 'is', 'is-empty': 'is-not-empty' };

type PositiveOperator = Exclude<SearchOperator, 'is-not' | 'is-empty'>;

function single(expression: Expression): string {
  if (typeof expression.value !== 'string') {
    throw HttpError.validation({ query: `${expression.operator} on ${expression.field} takes one value` });
  }
  return expression.value;
}

function list(expression: Expression): string[] {
  return Array.isArray(expression.value) ? expression.value : [single(expression)];
}

/** A text[] parameter; drizzle would otherwise spread a JS array into a list of parameters. */
const textArray = (values: string[]) => sql`${sql.param(values)}::text[]`;

/** The positive predicate of one operator on one column; every value is a bound parameter. */
function predicate(kind: Kind, column: Column, operator: PositiveOperator, expression: Expression): SQL {
  if (kind === 'array') {
    const anyElementLike = (pattern: string) =>
      sql`EXISTS (SELECT 1 FROM unnest(${column}) AS element WHERE element ILIKE ${pattern})`;
    switch (operator) {
      case 'is': {
        const value = single(expression);
        return hasWildcard(value) ? anyElementLike(wildcardToLike(value)) : sql`${column} @> ${textArray([value])}`;
      }
      case 'is-like': {
        const value = single(expression);
        return anyElementLike(containsPattern(value));
      }
      case 'contains-any':
        return sql`${column} && ${textArray(list(expression))}`;
      case 'contains-all':
        return sql`${column} @> ${textArray(list(expression))}`;
      case 'is-not-empty':
        return sql`cardinality(${column}) > 0`;
      case 'is-greater-than':
        throw new Error('is-greater-than has no meaning on a list; OPERATORS excludes it');
    }
  }
  const cast = kind === 'uuid' ? sql`::uuid` : sql``;
  switch (operator) {
    case 'is': {
      const value = single(expression);
      if (kind === 'text' && hasWildcard(value)) return sql`${column} ILIKE ${wildcardToLike(value)}`;
      return sql`${column} = ${value}${cast}`;
    }
    case 'is-like': {
      const value = single(expression);
      return sql`${column} ILIKE ${containsPattern(value)}`;
    }
    case 'is-greater-than':
      return sql`${column} > ${single(expression)}`;
    case 'contains-any':
      return kind === 'uuid'
        ? sql`${column} = ANY(${sql.param(list(expression))}::uuid[])`
        : sql`${column} = ANY(${textArray(list(expression))})`;
    case 'is-not-empty':
      return sql`coalesce(${column}, '') <> ''`;
    case 'contains-all':
      throw new Error('contains-all needs a list column; OPERATORS excludes it');
  }
}

/** Refuses operators the field's kind does not have and ids that are not ids; splits off the negation. */
function plan(kind: Kind, expression: Expression): { positive: PositiveOperator; negated: boolean } {
  if (!OPERATORS[kind].includes(expression.operator)) {
    throw HttpError.validation({ query: `${expression.operator} cannot be used with ${expression.field}` });
  }
  if (kind === 'uuid' && list(expression).some((id) => !isUuid(id))) {
    throw HttpError.validation({ query: `${expression.field} must be an id` });
  }
  const negated = NEGATIONS[expression.operator];
  return { positive: negated ?? (expression.operator as PositiveOperator), negated: negated != null };
}

/** A NULL column makes the positive form NULL, and NOT NULL is NULL: count "unknown" as "no match". */
const negate = (matches: SQL) => not(sql`coalesce(${matches}, false)`);

/**
 * One expression on a single column, with the operators and rules of case search; for searches
 * over other tables (images). Every value is a bound parameter.
 */
export function columnCondition(kind: SearchKind, column: Column, expression: Expression): SQL {
  const { positive, negated } = plan(kind, expression);
  const matches = predicate(kind, column, positive, expression);
  return negated ? negate(matches) : matches;
}

/** One expression as a condition on `cases`; image fields become EXISTS over the case's images. */
export function expressionCondition(expression: SearchExpression): SQL {
  const field = FIELDS[expression.field];
  const { positive, negated } = plan(field.kind, expression);
  const alternatives: SQL[] = [];
  if (field.caseColumn) alternatives.push(predicate(field.kind, field.caseColumn, positive, expression));
  if (field.imageColumn) {
    const onImage = predicate(field.kind, field.imageColumn, positive, expression);
    alternatives.push(sql`EXISTS (SELECT 1 FROM ${images} WHERE ${images.caseId} = ${cases.id} AND ${onImage})`);
  }
  const matches = alternatives.length === 1 ? alternatives[0]! : or(...alternatives)!;
  return negated ? negate(matches) : matches;
}

/** All expressions joined by AND; `true` when none is left after dropping empty values. */
export function queryCondition(query: readonly SearchExpression[]): SQL {
  const conditions = dropEmptyExpressions(query).map(expressionCondition);
  return conditions.length === 0 ? sql`true` : and(...conditions)!;
}
