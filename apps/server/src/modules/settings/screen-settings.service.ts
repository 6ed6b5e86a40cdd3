import {
  SCREEN_SETTING_DEFAULTS,
  SCREEN_SETTING_SCHEMAS,
  ScreenSettingTypeSchema,
  type ScreenSettingItem,
  type ScreenSettingType,
} from '@pathology/contract';
import type { ScreenSettingsRepository } from './screen-settings.repository.ts';

type Repository = Pick<ScreenSettingsRepository, 'find' | 'findAll' | 'upsertMany'>;

/**
 * A stored value is read through its key's schema: a value saved by an older version that no
 * longer fits falls back to the default instead of breaking the screen that reads it.
 */
function toItem(settingType: ScreenSettingType, stored: unknown): ScreenSettingItem {
  const parsed = SCREEN_SETTING_SCHEMAS[settingType].safeParse(stored);
  const value = parsed.success ? parsed.data : SCREEN_SETTING_DEFAULTS[settingType];
  return { settingType, value } as ScreenSettingItem;
}

export function createScreenSettingsService(repository: Repository) {
  return {
    async get(accountId: string, settingType: ScreenSettingType): Promise<ScreenSettingItem> {
      const stored = await repository.find(accountId, settingType);
      return toItem(settingType, stored?.value);
    },

    /** Every key, saved values where there are some and the spec's defaults elsewhere. */
    async all(accountId: string): Promise<ScreenSettingItem[]> {
      const stored = new Map((await repository.findAll(accountId)).map((row) => [row.settingType, row.value]));
      return ScreenSettingTypeSchema.options.map((key) => toItem(key, stored.get(key)));
    },

    async save(accountId: string, items: ScreenSettingItem[]): Promise<ScreenSettingItem[]> {
      const latest = new Map<ScreenSettingType, ScreenSettingItem>();
      for (const item of items) latest.set(item.settingType, item);
      await repository.upsertMany(accountId, [...latest.values()]);
      return [...latest.values()].map((item) => toItem(item.settingType, item.value));
    },
  };
}

export type ScreenSettingsService = ReturnType<typeof createScreenSettingsService>;
