import { and, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { ImageSearchExpression } from '@pathology/contract';
import { images } from '../../db/schema/index.ts';
import { columnCondition, dropEmptyExpressions, type SearchKind } from '../cases/case-search.query.ts';

type ImageSearchField = ImageSearchExpression['field'];

/** The column each search field reads and how its values compare; the operators are case search's. */
const FIELDS: Record<ImageSearchField, { kind: SearchKind; column: AnyColumn | SQL }> = {
  caseId: { kind: 'uuid', column: images.caseId },
  // Enums compare as text, so ILIKE works and an unknown value matches nothing instead of failing the cast.
  status: { kind: 'text', column: sql`${images.status}::text` },
  filename: { kind: 'text', column: images.filename },
  displayName: { kind: 'text', column: images.displayName },
  organ: { kind: 'text', column: images.organ },
  specimenType: { kind: 'text', column: sql`${images.specimenType}::text` },
  modelName: { kind: 'text', column: images.modelName },
  imageTags: { kind: 'array', column: images.imageTags },
  format: { kind: 'text', column: images.format },
};

/** Every expression ANDed, values bound as parameters; `true` when none is left after dropping empty values. */
export function imageQueryCondition(query: readonly ImageSearchExpression[]): SQL {
  const conditions = dropEmptyExpressions(query).map((expression) => {
    const field = FIELDS[expression.field];
    return columnCondition(field.kind, field.column, expression);
  });
  return conditions.length === 0 ? sql`true` : and(...conditions)!;
}
