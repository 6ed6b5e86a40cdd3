import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { AI_ORGANS, findAiModel, GENERAL_AI_MODELS } from '@pathology/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocalPreference } from '../viewer/useLocalPreference.ts';
import type { AnalysisCandidate } from './analysis-plan.ts';
import { ModelPicker, type ModelChoice } from './ModelPicker.tsx';
import { useAiModels } from './predictions.queries.ts';
import { useStartAnalysis } from './useStartAnalysis.ts';

/** The organ a remembered model is offered under: its own, or the first AI organ for a general model. */
function organOf(modelName: string): string | null {
  const model = findAiModel(modelName);
  if (!model) return null;
  return GENERAL_AI_MODELS.includes(model.modelName) ? AI_ORGANS[0] : model.organ;
}

/**
 * Choose AI model (part 1 §2, part 2 §2): an organ, then an installed model; Start stays disabled until
 * one is chosen. The choice is remembered as predictionModel and offered again while it is installed.
 */
export function ChooseModelDialog(props: {
  opened: boolean;
  onClose: () => void;
  images: readonly (AnalysisCandidate & { organizationId: string })[];
}) {
  const { t } = useTranslation();
  const [remembered, remember] = useLocalPreference('predictionModel');
  const models = useAiModels();
  const rememberedAvailable =
    remembered != null &&
    models.data?.some((model) => model.modelName === remembered && model.status === 'available') === true;
  const [choice, setChoice] = useState<ModelChoice | null>(null);
  const shown =
    choice ??
    (rememberedAvailable ? { organ: organOf(remembered), modelName: remembered } : { organ: null, modelName: null });
  const analysis = useStartAnalysis();

  const start = async () => {
    if (!shown.modelName) return;
    remember(shown.modelName);
    if (await analysis.start(props.images, shown.modelName)) props.onClose();
  };

  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('predictions.choose.title')}
      centered
      data-testid="choose-model-dialog"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('predictions.choose.images', { count: props.images.length })}
        </Text>
        <ModelPicker value={shown} onChange={setChoice} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('predictions.choose.cancel')}
          </Button>
          <Button
            disabled={!shown.modelName || props.images.length === 0}
            loading={analysis.busy}
            onClick={() => void start()}
            data-testid="choose-model-start"
          >
            {t('predictions.choose.start')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
