import type { Case } from '@pathology/contract';
import { FormErrorBanner } from './FormErrorBanner.tsx';
import { Alert, Button, Group, Select, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ValidationError } from '../../api/client.ts';
import { errorText } from '../../i18n/error-text.ts';
import { useAccountRoles } from '../account/account.queries.ts';
import { isPickerSearchable } from '../organizations/current-organization.ts';
import { useOrganizations } from '../organizations/organizations.queries.ts';
import { CaseFormFields } from './CaseFormFields.tsx';
import { useUpdateCase } from './case-detail.queries.ts';
import {
  caseToFormValues,
  firstErrorMessage,
  serverFieldErrors,
  toUpdateRequest,
  updateCaseFormSchema,
  type CaseFormValues,
  type UpdateCaseFormOutput,
} from './case-form.ts';
import { fieldErrorText } from './field-error-text.ts';

/** Details tab, edit mode (/cases/{id}/edit). */
export function EditCaseForm({ item, onDone }: { item: Case; onDone: () => void }) {
  const { t } = useTranslation();
  const roles = useAccountRoles();
  const isSuperUser = roles.data?.checks.isSuperUser === true;
  const organizations = useOrganizations();
  const form = useForm<CaseFormValues, unknown, UpdateCaseFormOutput>({
    defaultValues: caseToFormValues(item),
    resolver: zodResolver(updateCaseFormSchema),
    mode: 'onChange',
  });
  const { isValid } = form.formState;
  const update = useUpdateCase(item.id);
  const [banner, setBanner] = useState<string[] | null>(null);
  const canEdit = item.userCapabilities.canEdit;

  const submit = form.handleSubmit((values) => {
    if (!canEdit) return;
    setBanner(null);
    update.mutate(toUpdateRequest(values, item, isSuperUser), {
      onSuccess: (saved) => {
        notifications.show({ color: 'teal', message: t('caseDetail.form.updated', { caseNumber: saved.caseNumber }) });
        onDone();
      },
      onError: (error) => {
        const { fields, other } =
          error instanceof ValidationError
            ? serverFieldErrors(error.errors)
            : { fields: {}, other: [errorText(error, t)] };
        for (const [field, message] of Object.entries(fields)) {
          form.setError(field as keyof CaseFormValues, { type: 'server', message });
        }
        // Part 1 §8: field errors show at their fields; a failure without any says the case was not updated.
        setBanner(Object.keys(fields).length > 0 ? other : [t('caseDetail.form.updateFailed'), ...other]);
      },
    });
  });

  const providers = (organizations.data?.data ?? []).map((group) => ({ value: group.id, label: group.name }));
  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="case-edit-form">
      <Stack gap="lg">
        <Title order={3} fz="lg">
          {t('caseDetail.form.editTitle')}
        </Title>
        {banner && <FormErrorBanner title={t('caseDetail.form.saveFailed')} messages={banner} />}
        {!canEdit && (
          <Alert color="gray" variant="light" data-testid="case-form-readonly">
            {t('caseDetail.form.noPermission')}
          </Alert>
        )}
        {isSuperUser && (
          <Controller
            control={form.control}
            name="intendedOwnerOrganizationId"
            render={({ field, fieldState }) => (
              <Select
                label={t('caseDetail.fields.intendedOwnerOrganizationId')}
                description={t('caseDetail.form.slideProviderHint')}
                data={providers}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldErrorText(firstErrorMessage(fieldState.error), t)}
                searchable={isPickerSearchable(providers.length)}
                clearable
                nothingFoundMessage={t('caseDetail.nothingFound')}
                maw={480}
                data-testid="case-form-intendedOwner"
              />
            )}
          />
        )}
        <CaseFormFields control={form.control} register={form.register} disabled={!canEdit || update.isPending} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={update.isPending} data-testid="case-form-cancel">
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            loading={update.isPending}
            disabled={!canEdit || !isValid || update.isPending}
            data-testid="case-form-save"
          >
            {t('caseDetail.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
