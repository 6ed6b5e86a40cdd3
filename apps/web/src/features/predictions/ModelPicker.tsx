import { Select, Stack } from '@mantine/core';
import { AI_ORGANS, aiModelsForOrgan } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { useAiModels } from './predictions.queries.ts';
import { useCatalogueName, useCatalogueOptions } from '../../i18n/catalogue-names.ts';

export interface ModelChoice {
  organ: string | null;
  modelName: string | null;
}

/**
 * An organ, then one of the models offered for it (part 2 §2): models not installed on the server are
 * listed as coming soon and cannot be picked.
 */
export function ModelPicker({ value, onChange }: { value: ModelChoice; onChange: (next: ModelChoice) => void }) {
  const { t } = useTranslation();
  const name = useCatalogueName();
  const organOptions = useCatalogueOptions('organs', AI_ORGANS);
  const models = useAiModels();
  const offered = value.organ === null ? [] : aiModelsForOrgan(value.organ, models.data ?? []);
  return (
    <Stack gap="sm">
      <Select
        label={t('predictions.picker.organ')}
        placeholder={t('predictions.picker.organPlaceholder')}
        data={organOptions}
        value={value.organ}
        onChange={(organ) => onChange({ organ, modelName: null })}
        allowDeselect={false}
        comboboxProps={{ shadow: 'md' }}
        data-testid="model-picker-organ"
      />
      <Select
        label={t('predictions.picker.model')}
        placeholder={t('predictions.picker.modelPlaceholder')}
        data={offered.map((model) => ({
          value: model.modelName,
          label:
            model.status === 'available'
              ? name('models', model.modelName)
              : `${name('models', model.modelName)} (${t('predictions.picker.comingSoon')})`,
          disabled: model.status !== 'available',
        }))}
        value={value.modelName}
        disabled={value.organ === null || models.isPending}
        onChange={(modelName) => onChange({ ...value, modelName })}
        comboboxProps={{ shadow: 'md' }}
        data-testid="model-picker-model"
      />
    </Stack>
  );
}
