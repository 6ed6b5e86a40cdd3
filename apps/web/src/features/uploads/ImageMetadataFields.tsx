import { Group, Select } from '@mantine/core';
import { AI_MODELS, modelFitsOrgan, ORGANS, SPECIMEN_TYPES, type Organ, type SpecimenType } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { useAiModels } from '../predictions/predictions.queries.ts';
import type { UploadMetadata } from './upload-types.ts';
import { useCatalogueName, useCatalogueOptions } from '../../i18n/catalogue-names.ts';

const isOrgan = (value: string | null): value is Organ => ORGANS.some((organ) => organ === value);
const isSpecimen = (value: string | null): value is SpecimenType => SPECIMEN_TYPES.some((type) => type === value);

/** Organ (the ~70 sites), specimen type and, when AI is available, the model; all optional. */
export function ImageMetadataFields({
  value,
  onChange,
  showModel,
}: {
  value: UploadMetadata;
  onChange: (value: UploadMetadata) => void;
  showModel: boolean;
}) {
  const { t } = useTranslation();
  const name = useCatalogueName();
  const organOptions = useCatalogueOptions('organs', ORGANS);
  const installed = useAiModels();
  // Installed models offered for the chosen organ; without an organ every installed model.
  const models = (installed.data ?? []).filter(
    (model) => model.status === 'available' && modelFitsOrgan(model, value.organ),
  );
  return (
    <Group grow align="flex-start" gap="sm" data-testid="image-metadata">
      <Select
        label={t('uploads.dialog.organ')}
        placeholder={t('uploads.dialog.notSet')}
        data={organOptions}
        value={value.organ}
        onChange={(organ) => {
          const next = isOrgan(organ) ? organ : null;
          const keepModel = AI_MODELS.some(
            (model) => model.modelName === value.modelName && modelFitsOrgan(model, next),
          );
          onChange({ ...value, organ: next, modelName: keepModel ? value.modelName : null });
        }}
        searchable
        clearable
        comboboxProps={{ shadow: 'md' }}
        data-testid="metadata-organ"
      />
      <Select
        label={t('uploads.dialog.specimenType')}
        placeholder={t('uploads.dialog.notSet')}
        data={SPECIMEN_TYPES.map((type) => ({ value: type, label: t(`uploads.specimenTypes.${type}`) }))}
        value={value.specimenType}
        onChange={(type) => onChange({ ...value, specimenType: isSpecimen(type) ? type : null })}
        clearable
        comboboxProps={{ shadow: 'md' }}
        data-testid="metadata-specimen"
      />
      {showModel && (
        <Select
          label={t('uploads.dialog.aiModel')}
          placeholder={t('uploads.dialog.notSet')}
          data={models.map((model) => ({ value: model.modelName, label: name('models', model.modelName) }))}
          value={value.modelName}
          onChange={(modelName) => onChange({ ...value, modelName })}
          searchable
          clearable
          nothingFoundMessage={t('uploads.dialog.noModel')}
          comboboxProps={{ shadow: 'md' }}
          data-testid="metadata-model"
        />
      )}
    </Group>
  );
}
