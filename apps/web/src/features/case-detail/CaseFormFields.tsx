import { MAX_TAG_LENGTH, ORGANS, SPECIMEN_TYPES, type SpecimenType } from '@pathology/contract';
import { Select, SimpleGrid, Stack, TagsInput, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CaseFormErrors, CaseFormValues } from './case-form.ts';
import { fieldErrorText } from './field-error-text.ts';

export interface CaseFormFieldsProps {
  values: CaseFormValues;
  /** Messages to show now, per field (already filtered to touched fields). */
  errors: CaseFormErrors;
  onChange: <K extends keyof CaseFormValues>(field: K, value: CaseFormValues[K]) => void;
  disabled?: boolean;
}

function isSpecimenType(value: string | null): value is SpecimenType {
  return SPECIMEN_TYPES.some((type) => type === value);
}

/** The case's own fields, shared by the create page and the Details tab's edit form. */
export function CaseFormFields({ values, errors, onChange, disabled }: CaseFormFieldsProps) {
  const { t } = useTranslation();
  const error = (field: keyof CaseFormValues) => fieldErrorText(errors[field], t);
  const text = (field: 'diagnosis' | 'grossFindings' | 'microscopicFindings' | 'comments', minRows = 3) => (
    <Textarea
      label={t(`caseDetail.fields.${field}`)}
      value={values[field]}
      onChange={(event) => onChange(field, event.currentTarget.value)}
      error={error(field)}
      autosize
      minRows={minRows}
      maxRows={12}
      disabled={disabled}
      data-testid={`case-form-${field}`}
    />
  );

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <TextInput
          label={t('caseDetail.fields.caseNumber')}
          value={values.caseNumber}
          onChange={(event) => onChange('caseNumber', event.currentTarget.value)}
          error={error('caseNumber')}
          withAsterisk
          disabled={disabled}
          data-testid="case-form-caseNumber"
        />
        <Select
          label={t('caseDetail.fields.organ')}
          placeholder={t('caseDetail.form.chooseOrgan')}
          data={[...ORGANS]}
          value={values.organ}
          onChange={(value) => onChange('organ', value)}
          error={error('organ')}
          searchable
          clearable
          nothingFoundMessage={t('caseDetail.nothingFound')}
          disabled={disabled}
          data-testid="case-form-organ"
        />
        <Select
          label={t('caseDetail.fields.specimenType')}
          placeholder={t('caseDetail.form.chooseSpecimenType')}
          data={SPECIMEN_TYPES.map((type) => ({ value: type, label: t(`caseDetail.specimenTypes.${type}`) }))}
          value={values.specimenType}
          onChange={(value) => onChange('specimenType', isSpecimenType(value) ? value : null)}
          error={error('specimenType')}
          clearable
          disabled={disabled}
          data-testid="case-form-specimenType"
        />
      </SimpleGrid>
      <TagsInput
        label={t('caseDetail.fields.tags')}
        description={t('caseDetail.form.tagsHint', { max: MAX_TAG_LENGTH })}
        placeholder={t('caseDetail.form.tagsPlaceholder')}
        value={values.tags}
        onChange={(tags) => onChange('tags', tags)}
        error={error('tags')}
        clearable
        disabled={disabled}
        data-testid="case-form-tags"
      />
      {text('diagnosis', 2)}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {text('grossFindings')}
        {text('microscopicFindings')}
      </SimpleGrid>
      {text('comments', 2)}
    </Stack>
  );
}
