import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Organization } from '@pathology/contract';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ValidationError } from '../../api/client.ts';
import { errorText, fieldErrorText } from '../../i18n/error-text.ts';
import {
  organizationFormSchema,
  organizationPatch,
  organizationToFormValues,
  type OrganizationFormOutput,
  type OrganizationFormValues,
} from './organization-form.ts';
import { useUpdateOrganization } from './organizations.queries.ts';

const TEXT_FIELDS = ['country', 'phone', 'postalCode', 'contact'] as const;

/** The group's settings (part 3 §3). Limits and flags are the contract owner's: others see them locked. */
export function OrganizationSettingsForm({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const capabilities = organization.userCapabilities;
  const canEdit = capabilities.canEdit;
  const canSetLimits = capabilities.canDelete;
  const form = useForm<OrganizationFormValues, unknown, OrganizationFormOutput>({
    values: organizationToFormValues(organization),
    resolver: zodResolver(organizationFormSchema),
    mode: 'onChange',
  });
  const update = useUpdateOrganization(organization.id);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    update.mutate(organizationPatch(values, organization, canSetLimits), {
      onSuccess: () => notifications.show({ color: 'teal', message: t('groupAdmin.settings.saved') }),
      onError: (error) => {
        if (error instanceof ValidationError) {
          for (const [field, message] of Object.entries(error.errors)) {
            form.setError(field as keyof OrganizationFormValues, { type: 'server', message });
          }
        }
        setFailure(errorText(error, t));
      },
    });
  });

  const disabled = !canEdit || update.isPending;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="organization-settings-form">
      <Stack gap="md">
        {!canEdit && (
          <Alert
            color="gray"
            variant="light"
            icon={<IconLock size={18} />}
            data-testid="organization-settings-readonly"
          >
            {t('groupAdmin.settings.readOnly')}
          </Alert>
        )}
        {failure && (
          <Alert
            color="red"
            variant="light"
            title={t('groupAdmin.settings.saveFailed')}
            data-testid="organization-settings-error"
          >
            {failure}
          </Alert>
        )}
        <TextInput
          label={t('groupAdmin.fields.name')}
          required
          disabled={disabled}
          error={fieldErrorText(form.formState.errors.name?.message, t)}
          data-testid="organization-field-name"
          {...form.register('name')}
        />
        <Textarea
          label={t('groupAdmin.fields.description')}
          autosize
          minRows={2}
          disabled={disabled}
          error={fieldErrorText(form.formState.errors.description?.message, t)}
          {...form.register('description')}
        />
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {TEXT_FIELDS.map((field) => (
            <TextInput
              key={field}
              label={t(`groupAdmin.fields.${field}`)}
              disabled={disabled}
              error={fieldErrorText(form.formState.errors[field]?.message, t)}
              data-testid={`organization-field-${field}`}
              {...form.register(field)}
            />
          ))}
        </SimpleGrid>
        <Textarea
          label={t('groupAdmin.fields.address')}
          autosize
          minRows={2}
          disabled={disabled}
          error={fieldErrorText(form.formState.errors.address?.message, t)}
          {...form.register('address')}
        />
        <Controller
          control={form.control}
          name="storageLimitGb"
          render={({ field, fieldState }) => (
            <Stack gap={6}>
              <NumberInput
                label={t('groupAdmin.fields.storageLimitGb')}
                description={canSetLimits ? t('groupAdmin.settings.limitHint') : t('groupAdmin.settings.ownerOnly')}
                suffix=" GB"
                min={0}
                allowDecimal={false}
                value={field.value}
                onChange={(value) => field.onChange(typeof value === 'number' ? value : '')}
                disabled={disabled || !canSetLimits || field.value === ''}
                error={fieldErrorText(fieldState.error?.message, t)}
                maw={280}
                data-testid="organization-field-storageLimitGb"
              />
              <Checkbox
                label={t('groupAdmin.fields.noLimit')}
                checked={field.value === ''}
                onChange={(event) => field.onChange(event.currentTarget.checked ? '' : 100)}
                disabled={disabled || !canSetLimits}
                data-testid="organization-field-noLimit"
              />
            </Stack>
          )}
        />
        {(['predictionEnabled', 'downloadDrawingsEnabled'] as const).map((flag) => (
          <Controller
            key={flag}
            control={form.control}
            name={flag}
            render={({ field }) => (
              <Switch
                label={t(`groupAdmin.fields.${flag}`)}
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                disabled={disabled || !canSetLimits}
                data-testid={`organization-field-${flag}`}
              />
            )}
          />
        ))}
        {canEdit && (
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => form.reset()}
              disabled={!form.formState.isDirty || update.isPending}
            >
              {t('groupAdmin.settings.reset')}
            </Button>
            <Button
              type="submit"
              loading={update.isPending}
              disabled={!form.formState.isDirty}
              data-testid="organization-settings-save"
            >
              {t('groupAdmin.settings.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
