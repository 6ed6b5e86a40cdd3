import { and, eq, sql } from 'drizzle-orm';
import type { ScreenSettingItem, ScreenSettingType } from '@pathology/contract';
import type { Db } from '../../db/client.ts';
import { screenSettings } from '../../db/schema/index.ts';

export interface StoredSetting {
  settingType: ScreenSettingType;
  value: unknown;
}

export function createScreenSettingsRepository(db: Db) {
  return {
    async findAll(accountId: string): Promise<StoredSetting[]> {
      return db
        .select({ settingType: screenSettings.settingType, value: screenSettings.value })
        .from(screenSettings)
        .where(eq(screenSettings.accountId, accountId));
    },

    async find(accountId: string, settingType: ScreenSettingType): Promise<StoredSetting | undefined> {
      const [row] = await db
        .select({ settingType: screenSettings.settingType, value: screenSettings.value })
        .from(screenSettings)
        .where(and(eq(screenSettings.accountId, accountId), eq(screenSettings.settingType, settingType)));
      return row;
    },

    async upsertMany(accountId: string, items: ScreenSettingItem[]): Promise<void> {
      await db
        .insert(screenSettings)
        .values(items.map((item) => ({ accountId, settingType: item.settingType, value: item.value })))
        .onConflictDoUpdate({
          target: [screenSettings.accountId, screenSettings.settingType],
          set: { value: sql`excluded.value`, updatedAt: sql`now()` },
        });
    },
  };
}

export type ScreenSettingsRepository = ReturnType<typeof createScreenSettingsRepository>;
