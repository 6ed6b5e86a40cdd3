import {
  ColorPresetListSchema,
  ColorPresetSchema,
  MyColorSchema,
  fromBitmapColor,
  toBitmapColor,
  type ColorPreset,
  type ColorSettings,
  type MyColor,
  type MyColorSource,
} from '@pathology/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const colourQueryKeys = {
  all: ['viewer-colour'] as const,
  mine: () => [...colourQueryKeys.all, 'mine'] as const,
  myColour: (caseId: string) => [...colourQueryKeys.mine(), caseId] as const,
  presets: (organizationId: string) => [...colourQueryKeys.all, 'presets', organizationId] as const,
};

/** The caller's colour for a case, in the plain names the panel works with. */
export interface MyColour {
  settings: ColorSettings;
  source: MyColorSource;
  presetId: string | null;
}

/** A group's preset with plain setting names. */
export interface ColourPreset extends Omit<ColorPreset, 'settings'> {
  settings: ColorSettings;
}

const toMyColour = (wire: MyColor): MyColour => ({
  settings: fromBitmapColor(wire),
  source: wire.source,
  presetId: wire.presetId,
});
const toColourPreset = (wire: ColorPreset): ColourPreset => ({ ...wire, settings: fromBitmapColor(wire.settings) });

const presetsPath = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/colors`;
const presetPath = (organizationId: string, presetId: string) =>
  `${presetsPath(organizationId)}/${encodeURIComponent(presetId)}`;

export const myColourQuery = (caseId: string) =>
  queryOptions({
    queryKey: colourQueryKeys.myColour(caseId),
    queryFn: async ({ signal }) =>
      toMyColour(await api.get('/accounts/me/color', { query: { caseId }, signal, schema: MyColorSchema })),
    // What was saved a moment ago is what the server has; no need to ask again on every mount.
    staleTime: Infinity,
  });

/** GET accounts/me/color?caseId: saved colour, else the group's default preset, else neutral. */
export function useMyColour(caseId: string) {
  return useQuery(myColourQuery(caseId));
}

/** POST accounts/me/color: the answer replaces the cached colour, so reopening shows what was saved. */
export function useSaveMyColour() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ caseId, settings }: { caseId: string; settings: ColorSettings }) =>
      toMyColour(
        await api.post('/accounts/me/color', { caseId, ...toBitmapColor(settings) }, { schema: MyColorSchema }),
      ),
    onSuccess: (saved, { caseId }) => queryClient.setQueryData(colourQueryKeys.myColour(caseId), saved),
  });
}

/** GET organizations/{id}/colors: the default first. Fails with 404 for a group the caller cannot see. */
export function useColourPresets(organizationId: string) {
  return useQuery(
    queryOptions({
      queryKey: colourQueryKeys.presets(organizationId),
      queryFn: async ({ signal }) =>
        (await api.get(presetsPath(organizationId), { signal, schema: ColorPresetListSchema })).data.map(
          toColourPreset,
        ),
    }),
  );
}

/** Creating, deleting and (un)setting the default of presets (group administrators). */
export function usePresetMutations(organizationId: string) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: colourQueryKeys.presets(organizationId) }),
      // The default preset is the colour of users who have saved none: their cached colour is out of date.
      queryClient.invalidateQueries({ queryKey: colourQueryKeys.mine(), refetchType: 'none' }),
    ]);
  const parse = { schema: ColorPresetSchema };
  return {
    create: useMutation({
      mutationFn: async (preset: { name: string; settings: ColorSettings }) =>
        toColourPreset(
          await api.post(presetsPath(organizationId), { ...preset, settings: toBitmapColor(preset.settings) }, parse),
        ),
      onSuccess: refresh,
    }),
    setDefault: useMutation({
      mutationFn: async (presetId: string) =>
        toColourPreset(await api.patch(`${presetPath(organizationId, presetId)}/setdefault`, undefined, parse)),
      onSuccess: refresh,
    }),
    unsetDefault: useMutation({
      mutationFn: async (presetId: string) =>
        toColourPreset(await api.patch(`${presetPath(organizationId, presetId)}/unsetdefault`, undefined, parse)),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (presetId: string) => api.delete(presetPath(organizationId, presetId)),
      onSuccess: refresh,
    }),
  };
}
