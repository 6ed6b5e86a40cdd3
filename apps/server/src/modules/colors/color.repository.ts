import type { ColorSettings } from '@pathology/contract';
import { and, asc, desc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accountColors, colorPresets } from '../../db/schema/index.ts';

export type ColorPresetRow = typeof colorPresets.$inferSelect;

const inGroup = (organizationId: string, presetId: string) =>
  and(eq(colorPresets.organizationId, organizationId), eq(colorPresets.id, presetId));

export function createColorRepository(db: Db) {
  return {
    /** The group's presets: the default first, then by name. */
    async listPresets(organizationId: string): Promise<ColorPresetRow[]> {
      return db
        .select()
        .from(colorPresets)
        .where(eq(colorPresets.organizationId, organizationId))
        .orderBy(desc(colorPresets.isDefault), asc(colorPresets.name), asc(colorPresets.createdAt));
    },

    async findPreset(organizationId: string, presetId: string): Promise<ColorPresetRow | undefined> {
      const [row] = await db.select().from(colorPresets).where(inGroup(organizationId, presetId));
      return row;
    },

    async findDefaultPreset(organizationId: string): Promise<ColorPresetRow | undefined> {
      const [row] = await db
        .select()
        .from(colorPresets)
        .where(and(eq(colorPresets.organizationId, organizationId), eq(colorPresets.isDefault, true)));
      return row;
    },

    async createPreset(organizationId: string, name: string, settings: ColorSettings): Promise<ColorPresetRow> {
      const [row] = await db.insert(colorPresets).values({ organizationId, name, settings }).returning();
      return row!;
    },

    async updatePreset(
      organizationId: string,
      presetId: string,
      values: { name?: string; settings?: ColorSettings },
    ): Promise<ColorPresetRow | undefined> {
      const [row] = await db
        .update(colorPresets)
        .set({ ...values, updatedAt: new Date() })
        .where(inGroup(organizationId, presetId))
        .returning();
      return row;
    },

    async deletePreset(organizationId: string, presetId: string): Promise<boolean> {
      const deleted = await db
        .delete(colorPresets)
        .where(inGroup(organizationId, presetId))
        .returning({ id: colorPresets.id });
      return deleted.length > 0;
    },

    /**
     * Makes the preset the group's only default. The group's presets are locked first, so two
     * concurrent calls run one after the other instead of tripping the one-default index.
     */
    async setDefault(organizationId: string, presetId: string): Promise<ColorPresetRow | undefined> {
      return db.transaction(async (tx) => {
        const locked = await tx
          .select({ id: colorPresets.id })
          .from(colorPresets)
          .where(eq(colorPresets.organizationId, organizationId))
          .for('update');
        if (!locked.some((row) => row.id === presetId)) return undefined;
        await tx
          .update(colorPresets)
          .set({ isDefault: false })
          .where(
            and(
              eq(colorPresets.organizationId, organizationId),
              eq(colorPresets.isDefault, true),
              ne(colorPresets.id, presetId),
            ),
          );
        const [row] = await tx
          .update(colorPresets)
          .set({ isDefault: true })
          .where(inGroup(organizationId, presetId))
          .returning();
        return row;
      });
    },

    async unsetDefault(organizationId: string, presetId: string): Promise<ColorPresetRow | undefined> {
      const [row] = await db
        .update(colorPresets)
        .set({ isDefault: false })
        .where(inGroup(organizationId, presetId))
        .returning();
      return row;
    },

    async findAccountColor(accountId: string, caseId: string): Promise<ColorSettings | undefined> {
      const [row] = await db
        .select({ settings: accountColors.settings })
        .from(accountColors)
        .where(and(eq(accountColors.accountId, accountId), eq(accountColors.caseId, caseId)));
      return row?.settings;
    },

    async saveAccountColor(accountId: string, caseId: string, settings: ColorSettings): Promise<void> {
      await db
        .insert(accountColors)
        .values({ accountId, caseId, settings })
        .onConflictDoUpdate({
          target: [accountColors.accountId, accountColors.caseId],
          set: { settings, updatedAt: new Date() },
        });
    },
  };
}

export type ColorRepository = ReturnType<typeof createColorRepository>;
