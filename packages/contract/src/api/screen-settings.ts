import { z } from 'zod';
import type { ScreenSettingType } from '../domain/settings.ts';

export const SortDirectionSchema = z.enum(['asc', 'desc']);

export const CaseListSettingSchema = z.object({
  group: z.boolean(),
  tags: z.boolean(),
  status: z.boolean(),
  created: z.boolean(),
  pageSize: z.union([z.literal(10), z.literal(20), z.literal(50), z.literal(100)]),
  order: z.object({ field: z.enum(['caseNumber', 'createdAt']), direction: SortDirectionSchema }),
});

export const IMAGE_ORDER_FIELDS = ['displayName', 'filename', 'createdAt', 'organ'] as const;
export const ImageOrderSchema = z.object({ field: z.enum(IMAGE_ORDER_FIELDS), direction: SortDirectionSchema });
export type ImageOrder = z.infer<typeof ImageOrderSchema>;

export const SCREEN_SETTING_MESSAGES = { thenBySameField: 'The second priority cannot repeat the first' } as const;

/** The case's images: ordered by `order`, then by `thenBy` (never the same field) among equals. */
export const CaseDetailSettingSchema = z
  .object({ order: ImageOrderSchema, thenBy: ImageOrderSchema.nullable().default(null) })
  .refine((setting) => setting.thenBy?.field !== setting.order.field, {
    path: ['thenBy', 'field'],
    message: SCREEN_SETTING_MESSAGES.thenBySameField,
  });
export type CaseDetailSetting = z.infer<typeof CaseDetailSettingSchema>;

export const DrawingVisibilitySettingSchema = z.object({
  visibility: z.enum(['all', 'private', 'public', 'mine']),
});

/** One schema per setting type, so a saved value can never have the wrong shape. */
export const SCREEN_SETTING_SCHEMAS = {
  case_list: CaseListSettingSchema,
  case_detail: CaseDetailSettingSchema,
  drawing_visibility: DrawingVisibilitySettingSchema,
} as const;

export type ScreenSettingValues = { [K in ScreenSettingType]: z.infer<(typeof SCREEN_SETTING_SCHEMAS)[K]> };

export const SCREEN_SETTING_DEFAULTS: ScreenSettingValues = {
  case_list: {
    group: true,
    tags: true,
    status: true,
    created: true,
    pageSize: 10,
    order: { field: 'createdAt', direction: 'desc' },
  },
  case_detail: { order: { field: 'displayName', direction: 'asc' }, thenBy: null },
  drawing_visibility: { visibility: 'all' },
};

export const ScreenSettingItemSchema = z.discriminatedUnion('settingType', [
  z.object({ settingType: z.literal('case_list'), value: CaseListSettingSchema }),
  z.object({ settingType: z.literal('case_detail'), value: CaseDetailSettingSchema }),
  z.object({ settingType: z.literal('drawing_visibility'), value: DrawingVisibilitySettingSchema }),
]);
export type ScreenSettingItem = z.infer<typeof ScreenSettingItemSchema>;

export const SaveScreenSettingsSchema = z.object({ items: z.array(ScreenSettingItemSchema).min(1) });
export type SaveScreenSettings = z.infer<typeof SaveScreenSettingsSchema>;

export const ScreenSettingsListSchema = z.object({ data: z.array(ScreenSettingItemSchema) });
