import { jsonb, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { updatedAt, type JsonValue } from './columns.ts';
import { screenSettingType } from './enums.ts';

/** Per-user screen settings; the value's shape per type is defined by the contract's screen-settings schemas. */
export const screenSettings = pgTable(
  'screen_settings',
  {
    accountId: uuid()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    settingType: screenSettingType().notNull(),
    value: jsonb().$type<JsonValue>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.settingType] })],
);
