import { Button, Group, Modal, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ImageSchema } from '@pathology/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { errorText } from '../../i18n/error-text.ts';
import { caseListQueryKeys } from '../case-list/case-list.queries.ts';
import { ModelPicker, type ModelChoice } from '../predictions/ModelPicker.tsx';
import { caseImagesQueryKeys } from './case-images.queries.ts';

/** Part 2 §2 "Set AI Model" for the selected images: an organ, then one of its installed models. */
export function SetModelDialog(props: { opened: boolean; onClose: () => void; imageIds: readonly string[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<ModelChoice>({ organ: null, modelName: null });
  const [busy, setBusy] = useState(false);

  const apply = async () => {
    setBusy(true);
    try {
      for (const id of props.imageIds) {
        await api.patch(
          `/images/${encodeURIComponent(id)}`,
          { modelName: choice.modelName, organ: choice.organ },
          { schema: ImageSchema },
        );
      }
      notifications.show({ color: 'teal', message: t('caseImages.model.succeeded') });
      props.onClose();
    } catch (error) {
      notifications.show({ color: 'red', message: t('caseImages.model.failed', { message: errorText(error, t) }) });
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: caseImagesQueryKeys.all });
      void queryClient.invalidateQueries({ queryKey: caseListQueryKeys.searches() });
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
        <ModelPicker value={choice} onChange={setChoice} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('caseImages.model.cancel')}
          </Button>
          <Button
            disabled={choice.modelName == null || props.imageIds.length === 0}
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
