import {
  DEFAULT_COLOR_SETTINGS,
  fromBitmapColor,
  toBitmapColor,
  type ColorPreset,
  type CreateColorPresetRequest,
  type MyColor,
  type SaveMyColorRequest,
  type UpdateColorPresetRequest,
} from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';
import type { ColorPresetRow, ColorRepository } from './color.repository.ts';

interface Deps {
  colors: ColorRepository;
  capabilities: Pick<
    CapabilitiesService,
    'requireCaseVisible' | 'requireOrganizationVisible' | 'requireOrganizationCapability'
  >;
}

function toPreset(row: ColorPresetRow): ColorPreset {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    isDefault: row.isDefault,
    // Rows written before the ranges existed keep whatever they hold; the wire shape is the same.
    settings: toBitmapColor({ ...DEFAULT_COLOR_SETTINGS, ...row.settings }),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function found<T>(value: T | undefined): T {
  if (value == null) throw HttpError.notFound();
  return value;
}

/**
 * Colour presets of a group and each user's colour per case (part 2 §3, §7). Anyone who sees a
 * group reads its presets; its administrators (canEdit) change them and choose the default.
 */
export function createColorService({ colors, capabilities }: Deps) {
  const requireReader = (caller: Caller, organizationId: string) =>
    capabilities.requireOrganizationVisible(caller, organizationId);
  const requireAdministrator = (caller: Caller, organizationId: string) =>
    capabilities.requireOrganizationCapability(caller, organizationId, 'canEdit');
  /** Runs `find` on a well-formed id; a malformed one names no preset (404, no PostgreSQL cast error). */
  async function existing(id: string, find: (id: string) => Promise<ColorPresetRow | undefined>) {
    return found(isUuid(id) ? await find(id) : undefined);
  }

  return {
    async myColor(caller: Caller, caseId: string): Promise<MyColor> {
      const access = await capabilities.requireCaseVisible(caller, caseId);
      const own = await colors.findAccountColor(caller.accountId, caseId);
      if (own != null) {
        return { caseId, source: 'user', presetId: null, ...toBitmapColor({ ...DEFAULT_COLOR_SETTINGS, ...own }) };
      }
      const preset = await colors.findDefaultPreset(access.case.ownerOrganization.id);
      if (preset != null) return { caseId, source: 'preset', presetId: preset.id, ...toPreset(preset).settings };
      return { caseId, source: 'default', presetId: null, ...toBitmapColor(DEFAULT_COLOR_SETTINGS) };
    },

    async saveMyColor(caller: Caller, request: SaveMyColorRequest): Promise<MyColor> {
      await capabilities.requireCaseVisible(caller, request.caseId);
      const settings = fromBitmapColor(request);
      await colors.saveAccountColor(caller.accountId, request.caseId, settings);
      return { caseId: request.caseId, source: 'user', presetId: null, ...toBitmapColor(settings) };
    },

    async listPresets(caller: Caller, organizationId: string): Promise<ColorPreset[]> {
      await requireReader(caller, organizationId);
      return (await colors.listPresets(organizationId)).map(toPreset);
    },

    async getPreset(caller: Caller, organizationId: string, id: string): Promise<ColorPreset> {
      await requireReader(caller, organizationId);
      return toPreset(await existing(id, (key) => colors.findPreset(organizationId, key)));
    },

    async createPreset(caller: Caller, organizationId: string, request: CreateColorPresetRequest) {
      await requireAdministrator(caller, organizationId);
      return toPreset(await colors.createPreset(organizationId, request.name, fromBitmapColor(request.settings)));
    },

    async updatePreset(caller: Caller, organizationId: string, id: string, request: UpdateColorPresetRequest) {
      await requireAdministrator(caller, organizationId);
      const current = await existing(id, (key) => colors.findPreset(organizationId, key));
      const settings =
        request.settings == null ? undefined : fromBitmapColor({ ...toPreset(current).settings, ...request.settings });
      return toPreset(found(await colors.updatePreset(organizationId, current.id, { name: request.name, settings })));
    },

    async deletePreset(caller: Caller, organizationId: string, id: string): Promise<void> {
      await requireAdministrator(caller, organizationId);
      if (!isUuid(id) || !(await colors.deletePreset(organizationId, id))) throw HttpError.notFound();
    },

    async setDefault(caller: Caller, organizationId: string, id: string): Promise<ColorPreset> {
      await requireAdministrator(caller, organizationId);
      return toPreset(await existing(id, (key) => colors.setDefault(organizationId, key)));
    },

    async unsetDefault(caller: Caller, organizationId: string, id: string): Promise<ColorPreset> {
      await requireAdministrator(caller, organizationId);
      return toPreset(await existing(id, (key) => colors.unsetDefault(organizationId, key)));
    },
  };
}

export type ColorService = ReturnType<typeof createColorService>;
