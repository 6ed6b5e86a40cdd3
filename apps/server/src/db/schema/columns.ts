import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** Shared column builders; each call returns a fresh builder, as drizzle requires one per table. */
export const id = () => uuid().primaryKey().defaultRandom();

export const createdAt = () => timestamp({ withTimezone: true }).defaultNow().notNull();

/** Set on insert and refreshed by drizzle on every update made through it. */
export const updatedAt = () =>
  timestamp({ withTimezone: true })
    .defaultNow()
    .notNull()
    .$onUpdate(() => new Date());

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
