import type { ColorSettings } from '@pathology/contract';
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { cases } from './cases.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { organizations } from './organizations.ts';

/** Named viewer colour adjustments of a group; at most one is the group's default. */
export const colorPresets = pgTable(
  'color_presets',
  {
    id: id(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    settings: jsonb().$type<ColorSettings>().notNull(),
    isDefault: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('color_presets_organization_idx').on(t.organizationId),
    uniqueIndex('color_presets_one_default')
      .on(t.organizationId)
      .where(sql`${t.isDefault}`),
  ],
);

/** A user's own colour adjustment, for one case or (caseId null) for everything else. */
export const accountColors = pgTable(
  'account_colors',
  {
    id: id(),
    accountId: uuid()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    caseId: uuid().references(() => cases.id, { onDelete: 'cascade' }),
    settings: jsonb().$type<ColorSettings>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('account_colors_account_case_unique').on(t.accountId, t.caseId).nullsNotDistinct()],
);
