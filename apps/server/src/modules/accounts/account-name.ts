import { sql } from 'drizzle-orm';
import { accounts } from '../../db/schema/index.ts';

/** How a person is named on screen: display name, else "firstName lastName", else e-mail. */
export const accountName = sql<string | null>`coalesce(
  nullif(btrim(${accounts.displayName}), ''),
  nullif(btrim(${accounts.firstName} || ' ' || ${accounts.lastName}), ''),
  ${accounts.email})`;
