import {
  CaseSearchResponseSchema,
  OrganizationListSchema,
  SCREEN_SETTING_DEFAULTS,
  ScreenSettingItemSchema,
  TagListSchema,
  type CaseSearchRequest,
  type LabelInput,
  type ScreenSettingValues,
} from '@pathology/contract';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { changeCaseLabel, createImageLabel, deleteImageLabel } from '../../components/labels/label.api.ts';
import type { LabelAction } from '../../components/labels/label-toggle.ts';
import { errorText } from '../../i18n/error-text.ts';
import { viewableWhileConverting } from './viewable-while-converting.ts';

export type CaseListSetting = ScreenSettingValues['case_list'];

export const caseListQueryKeys = {
  all: ['case-list'] as const,
  searches: () => [...caseListQueryKeys.all, 'search'] as const,
  search: (request: CaseSearchRequest) => [...caseListQueryKeys.searches(), request] as const,
  tags: () => [...caseListQueryKeys.all, 'tags'] as const,
  imageTags: () => [...caseListQueryKeys.all, 'image-tags'] as const,
  setting: () => [...caseListQueryKeys.all, 'setting'] as const,
  transferable: () => [...caseListQueryKeys.all, 'transferable'] as const,
};

/** POST cases/search; no timeout (part 1 §7: case search has none). */
export function searchCases(request: CaseSearchRequest, signal?: AbortSignal) {
  return api.post('/cases/search', request, { signal, timeout: false, schema: CaseSearchResponseSchema });
}

export const caseSearchQuery = (request: CaseSearchRequest) =>
  queryOptions({
    queryKey: caseListQueryKeys.search(request),
    queryFn: ({ signal }) => searchCases(request, signal),
    placeholderData: keepPreviousData,
  });

/** While a listed image's prediction waits or runs, or its pyramid is built, the list is asked again so its progress moves. */
const PREDICTION_POLL_MS = 5000;

export function useCaseSearch(request: CaseSearchRequest | undefined) {
  return useQuery({
    ...caseSearchQuery(request ?? {}),
    enabled: request !== undefined,
    refetchInterval: (query) =>
      query.state.data?.data.some((item) =>
        item.images.some(
          (image) =>
            viewableWhileConverting(image) ||
            image.predictionSummary.some((summary) => summary.status === 'waiting' || summary.status === 'running'),
        ),
      )
        ? PREDICTION_POLL_MS
        : false,
  });
}

const TAGS_STALE_TIME = 60_000;

/** GET tags: every case tag the caller can see, for the dialog's suggestions. */
export function useCaseTags(enabled = true) {
  return useQuery({
    queryKey: caseListQueryKeys.tags(),
    queryFn: ({ signal }) => api.get('/tags', { signal, schema: TagListSchema }),
    staleTime: TAGS_STALE_TIME,
    enabled,
  });
}

/** GET image/tags: every image tag the caller can see. */
export function useImageTags(enabled = true) {
  return useQuery({
    queryKey: caseListQueryKeys.imageTags(),
    queryFn: ({ signal }) => api.get('/image/tags', { signal, schema: TagListSchema }),
    staleTime: TAGS_STALE_TIME,
    enabled,
  });
}

/** GET screen_settings/get/case_list: columns, page size and order; the defaults when unset or unreadable. */
export function useCaseListSetting() {
  return useQuery({
    queryKey: caseListQueryKeys.setting(),
    queryFn: async ({ signal }): Promise<CaseListSetting> => {
      const item = await api.get('/screen_settings/get/case_list', { signal, schema: ScreenSettingItemSchema });
      return item.settingType === 'case_list' ? item.value : SCREEN_SETTING_DEFAULTS.case_list;
    },
    staleTime: Infinity,
    retry: false,
  });
}

/** Saves the case-list setting; shown at once, and on failure the toast "Failed to case list setting". */
export function useSaveCaseListSetting() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (value: CaseListSetting) =>
      api.post('/screen_settings/save', { items: [{ settingType: 'case_list', value }] }),
    onMutate: (value) => queryClient.setQueryData(caseListQueryKeys.setting(), value),
    onError: () => {
      notifications.show({ color: 'red', message: t('caseList.settingSaveFailed') });
    },
  });
}

export type LabelChange =
  | { target: 'case'; caseId: string; label: LabelInput; action: LabelAction }
  | { target: 'image'; imageId: string; label: LabelInput; action: 'create' }
  | { target: 'image'; imageId: string; labelId: string; action: 'delete' };

async function applyLabelChange(change: LabelChange): Promise<void> {
  if (change.target === 'case') return changeCaseLabel(change.caseId, change.label, change.action);
  if (change.action === 'create') {
    await createImageLabel(change.imageId, change.label);
    return;
  }
  return deleteImageLabel(change.imageId, change.labelId);
}

/** Label toggles of the list: not optimistic, the list is fetched again afterwards. */
export function useLabelChange() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: applyLabelChange,
    onError: (error) => {
      notifications.show({ color: 'red', title: t('caseList.labels.changeFailed'), message: errorText(error, t) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: caseListQueryKeys.searches() }),
  });
}

/** POST organizations/transferable/all: groups the caller may move cases into. */
export function useTransferableOrganizations() {
  return useQuery({
    queryKey: caseListQueryKeys.transferable(),
    queryFn: ({ signal }) =>
      api.post('/organizations/transferable/all', undefined, { signal, schema: OrganizationListSchema }),
  });
}

/** PUT cases/transfer/multiple/{orgId}: all the cases move, or none. */
export function useTransferCases() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ to, from, cases }: { to: string; from: string; cases: string[] }) =>
      api.put(`/cases/transfer/multiple/${encodeURIComponent(to)}`, { cases, organizationId: from }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: caseListQueryKeys.searches() }),
  });
}
