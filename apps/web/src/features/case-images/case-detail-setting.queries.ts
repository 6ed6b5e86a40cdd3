import { notifications } from '@mantine/notifications';
import { ScreenSettingItemSchema, SCREEN_SETTING_DEFAULTS, type CaseDetailSetting } from '@pathology/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';

const settingKey = ['screen-settings', 'case_detail'] as const;

/** The case_detail screen setting (the images' order), kept per user on the server; shown at once when changed. */
export function useCaseDetailSetting() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const setting = useQuery({
    queryKey: settingKey,
    queryFn: async ({ signal }): Promise<CaseDetailSetting> => {
      const item = await api.get('/screen_settings/get/case_detail', { signal, schema: ScreenSettingItemSchema });
      return item.settingType === 'case_detail' ? item.value : SCREEN_SETTING_DEFAULTS.case_detail;
    },
    staleTime: Infinity,
    retry: false,
  });
  const save = useMutation({
    mutationFn: (value: CaseDetailSetting) =>
      api.post('/screen_settings/save', { items: [{ settingType: 'case_detail', value }] }),
    onMutate: (value) => queryClient.setQueryData(settingKey, value),
    onError: () => notifications.show({ color: 'red', message: t('caseImages.toolbar.settingFailed') }),
  });
  return {
    setting: setting.data ?? SCREEN_SETTING_DEFAULTS.case_detail,
    save: (value: CaseDetailSetting) => save.mutate(value),
  };
}
