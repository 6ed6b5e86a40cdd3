import { MAX_TAG_LENGTH, ORGANS, SPECIMEN_TYPES, type SpecimenType } from '@pathology/contract';
import { Select, SimpleGrid, Stack, TagsInput, TextInput, Textarea } from '@mantine/core';
import { Controller, useFormState, type Control, type FieldValues, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useCatalogueOptions } from '../../i18n/catalogue-names.ts';
import { firstErrorMessage, type CaseFormValues } from './case-form.ts';
import { fieldErrorText } from './field-error-text.ts';

export interface CaseFormFieldsProps<TOutput extends FieldValues> {
  control: Control<CaseFormValues, unknown, TOutput>;
  register: UseFormRegister<CaseFormValues>;
  disabled?: boolean;
}

function isSpecimenType(value: string | null): value is SpecimenType {
  return SPECIMEN_TYPES.some((type) => type === value);
}

/** The case's own fields, shared by the create page and the Details tab's edit form. */
export function CaseFormFields<TOutput extends FieldValues>({
  control,
  register,
  disabled,
}: CaseFormFieldsProps<TOutput>) {
  const { t } = useTranslation();
  const organOptions = useCatalogueOptions('organs', ORGANS);
  const { errors } = useFormState({ control });
  const error = (field: keyof CaseFormValues) => fieldErrorText(firstErrorMessage(errors[field]), t);
  const text = (field: 'diagnosis' | 'grossFindings' | 'microscopicFindings' | 'comments', minRows = 3) => (
    <Textarea
      label={t(`caseDetail.fields.${field}`)}
      {...register(field)}
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
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        <TextInput
          label={t('caseDetail.fields.caseNumber')}
          {...register('caseNumber')}
          error={error('caseNumber')}
          withAsterisk
          disabled={disabled}
          data-testid="case-form-caseNumber"
        />
        <Controller
          control={control}
          name="organ"
          render={({ field }) => (
            <Select
              label={t('caseDetail.fields.organ')}
              placeholder={t('caseDetail.form.chooseOrgan')}
              data={organOptions}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
              error={error('organ')}
              searchable
              clearable
              nothingFoundMessage={t('caseDetail.nothingFound')}
              disabled={disabled}
              data-testid="case-form-organ"
            />
          )}
        />
        <Controller
          control={control}
          name="specimenType"
          render={({ field }) => (
            <Select
              label={t('caseDetail.fields.specimenType')}
              placeholder={t('caseDetail.form.chooseSpecimenType')}
              data={SPECIMEN_TYPES.map((type) => ({ value: type, label: t(`caseDetail.specimenTypes.${type}`) }))}
              value={field.value}
              onChange={(value) => field.onChange(isSpecimenType(value) ? value : null)}
              onBlur={field.onBlur}
              ref={field.ref}
              error={error('specimenType')}
              clearable
              disabled={disabled}
              data-testid="case-form-specimenType"
            />
          )}
        />
      </SimpleGrid>
      <Controller
        control={control}
        name="tags"
        render={({ field }) => (
          <TagsInput
            label={t('caseDetail.fields.tags')}
            description={t('caseDetail.form.tagsHint', { max: MAX_TAG_LENGTH })}
            placeholder={t('caseDetail.form.tagsPlaceholder')}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
            error={error('tags')}
            clearable
            disabled={disabled}
            data-testid="case-form-tags"
          />
        )}
      />
      {text('diagnosis', 2)}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        {text('grossFindings')}
        {text('microscopicFindings')}
      </SimpleGrid>
      {text('comments', 2)}
    </Stack>
  );
}
