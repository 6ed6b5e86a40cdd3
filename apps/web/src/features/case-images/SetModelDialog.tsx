import { Button, Group, Modal, Select, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AI_MODELS, AI_ORGANS, ImageSchema } from '@pathology/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { errorText } from '../../i18n/error-text.ts';
import { caseImagesQueryKeys } from './case-images.queries.ts';

/** Part 2 §2 "Set AI Model": an organ, then one of its models (coming-soon ones shown but not selectable). */
export function SetModelDialog(props: {
  opened: boolean;
  onClose: () => void;
  caseId: string;
  imageIds: readonly string[];
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [organ, setOrgan] = useState<string | null>(null);
  const [modelName, setModelName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const models = AI_MODELS.filter((model) => model.organ === organ).map((model) => ({
    value: model.modelName,
    label:
      model.status === 'available' ? model.displayName : `${model.displayName} (${t('caseImages.model.comingSoon')})`,
    disabled: model.status !== 'available',
  }));

  const apply = async () => {
    setBusy(true);
    try {
      for (const id of props.imageIds) {
        await api.patch(`/images/${encodeURIComponent(id)}`, { modelName }, { schema: ImageSchema });
      }
      notifications.show({ color: 'teal', message: t('caseImages.model.succeeded') });
      props.onClose();
    } catch (error) {
      notifications.show({ color: 'red', message: t('caseImages.model.failed', { message: errorText(error, t) }) });
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: caseImagesQueryKeys.list(props.caseId) });
    }
  };

  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('caseImages.model.title')}
      centered
      data-testid="set-model-dialog"
    >
      <Stack gap="sm">
        <Select
          label={t('caseImages.model.organ')}
          data={AI_ORGANS}
          value={organ}
          onChange={(value) => {
            setOrgan(value);
            setModelName(null);
          }}
          data-testid="set-model-organ"
        />
        <Select
          label={t('caseImages.model.model')}
          data={models}
          value={modelName}
          disabled={organ == null}
          onChange={setModelName}
          data-testid="set-model-model"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('caseImages.model.cancel')}
          </Button>
          <Button
            disabled={modelName == null || props.imageIds.length === 0}
            loading={busy}
            onClick={() => void apply()}
            data-testid="set-model-apply"
          >
            {t('caseImages.model.apply')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
