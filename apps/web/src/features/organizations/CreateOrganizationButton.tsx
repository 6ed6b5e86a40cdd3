import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Modal, NumberInput, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { CreateOrganizationRequest } from '@pathology/contract';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ValidationError } from '../../api/client.ts';
import { errorText, fieldErrorText } from '../../i18n/error-text.ts';
import { useContracts } from '../contracts/contracts.queries.ts';
import { createOrganizationFormSchema, type CreateOrganizationFormValues } from './organization-form.ts';
import { useCreateOrganization } from './organizations.queries.ts';

/** "Create group" for contract owners: into one of their contracts, within its group limit (409 past it). */
export function CreateOrganizationButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const contracts = useContracts(opened);
  const create = useCreateOrganization();
  const form = useForm<CreateOrganizationFormValues, unknown, CreateOrganizationRequest>({
    defaultValues: { name: '', contractId: '', description: '', storageLimitGb: '' },
    resolver: zodResolver(createOrganizationFormSchema),
  });
  const options = (contracts.data?.data ?? [])
    .filter((contract) => contract.userCapabilities.canEdit)
    .map((contract) => ({ value: contract.id, label: contract.name }));

  const submit = form.handleSubmit((request) => {
    create.mutate(request, {
      onSuccess: (created) => {
        notifications.show({ color: 'teal', message: t('groupAdmin.create.done', { name: created.name }) });
        setOpened(false);
        form.reset();
        void navigate(`/organizations/${created.id}`);
      },
      onError: (error) => {
        if (error instanceof ValidationError) {
          for (const [field, message] of Object.entries(error.errors)) {
            form.setError(field as keyof CreateOrganizationFormValues, { type: 'server', message });
          }
        }
      },
    });
  });

  return (
    <>
      <Button leftSection={<IconPlus size={16} />} onClick={() => setOpened(true)} data-testid="organization-create">
        {t('groupAdmin.create.button')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('groupAdmin.create.title')} centered>
        <form onSubmit={(event) => void submit(event)} noValidate data-testid="organization-create-form">
          <Stack gap="md">
            {create.isError && !(create.error instanceof ValidationError) && (
              <Alert color="red" data-testid="organization-create-error">
                {errorText(create.error, t)}
              </Alert>
            )}
            <TextInput
              label={t('groupAdmin.fields.name')}
              required
              error={fieldErrorText(form.formState.errors.name?.message, t)}
              data-testid="organization-create-name"
              {...form.register('name')}
            />
            <Controller
              control={form.control}
              name="contractId"
              render={({ field, fieldState }) => (
                <Select
                  label={t('groupAdmin.fields.contract')}
                  required
                  data={options}
                  value={field.value || null}
                  onChange={(value) => field.onChange(value ?? '')}
                  error={fieldErrorText(fieldState.error?.message, t)}
                  placeholder={contracts.isPending ? t('groupAdmin.loading') : undefined}
                  data-testid="organization-create-contract"
                />
              )}
            />
            <Textarea
              label={t('groupAdmin.fields.description')}
              autosize
              minRows={2}
              {...form.register('description')}
            />
            <Controller
              control={form.control}
              name="storageLimitGb"
              render={({ field }) => (
                <NumberInput
                  label={t('groupAdmin.fields.storageLimitGb')}
                  description={t('groupAdmin.create.limitHint')}
                  suffix=" GB"
                  min={0}
                  allowDecimal={false}
                  value={field.value}
                  onChange={(value) => field.onChange(typeof value === 'number' ? value : '')}
                  data-testid="organization-create-limit"
                />
              )}
            />
            <Button type="submit" loading={create.isPending} data-testid="organization-create-submit">
              {t('groupAdmin.create.submit')}
            </Button>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
