import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { CONTRACT_PLANS, type Contract } from '@pathology/contract';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ValidationError } from '../../api/client.ts';
import { DateField } from '../../components/DateField.tsx';
import { useCatalogueOptions } from '../../i18n/catalogue-names.ts';
import { errorText, fieldErrorText } from '../../i18n/error-text.ts';
import {
  TEXT_FIELDS,
  contractFormSchema,
  contractToFormValues,
  emptyContractForm,
  type ContractFormOutput,
  type ContractFormValues,
} from './contract-form.ts';
import { useSaveContract } from './contracts.queries.ts';

const today = () => new Date().toISOString().slice(0, 10);

/** Create (no `contract`) or edit a contract with every field of part 3 §3. */
export function ContractFormModal({
  contract,
  opened,
  onClose,
}: {
  contract: Contract | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveContract(contract?.id ?? null);
  const planOptions = useCatalogueOptions('plans', CONTRACT_PLANS);
  const form = useForm<ContractFormValues, unknown, ContractFormOutput>({
    values: contract ? contractToFormValues(contract) : emptyContractForm(today()),
    resolver: zodResolver(contractFormSchema),
  });
  const errors = form.formState.errors;

  const submit = form.handleSubmit((request) =>
    save.mutate(request, {
      onSuccess: (saved) => {
        notifications.show({
          color: 'teal',
          message: t(contract ? 'contracts.form.updated' : 'contracts.form.created', { name: saved.name }),
        });
        onClose();
      },
      onError: (error) => {
        if (!(error instanceof ValidationError)) return;
        for (const [field, message] of Object.entries(error.errors)) {
          form.setError(field as keyof ContractFormValues, { type: 'server', message });
        }
      },
    }),
  );

  const limitInput = (name: 'maxOrganizations' | 'storageLimitGb', suffix?: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <NumberInput
          label={t(`contracts.fields.${name}`)}
          description={t('contracts.form.noLimitHint')}
          suffix={suffix}
          min={0}
          allowDecimal={false}
          value={field.value}
          onChange={(value) => field.onChange(typeof value === 'number' ? value : '')}
          error={fieldErrorText(fieldState.error?.message, t)}
          data-testid={`contract-field-${name}`}
        />
      )}
    />
  );

  const dateInput = (name: 'startDate' | 'endDate') => (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <DateField
          label={t(`contracts.fields.${name}`)}
          required={name === 'startDate'}
          clearable={name === 'endDate'}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={fieldErrorText(fieldState.error?.message, t)}
          data-testid={`contract-field-${name}`}
        />
      )}
    />
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      centered
      title={contract ? t('contracts.form.editTitle') : t('contracts.form.createTitle')}
    >
      <form onSubmit={(event) => void submit(event)} noValidate data-testid="contract-form">
        <Stack gap="md">
          {save.isError && !(save.error instanceof ValidationError) && (
            <Alert color="red" data-testid="contract-form-error">
              {errorText(save.error, t)}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <TextInput
              label={t('contracts.fields.name')}
              required
              error={fieldErrorText(errors.name?.message, t)}
              data-testid="contract-field-name"
              {...form.register('name')}
            />
            <Controller
              control={form.control}
              name="plan"
              render={({ field, fieldState }) => (
                <Select
                  label={t('contracts.fields.plan')}
                  required
                  // A plan stored outside the offered ones stays choosable, so editing keeps it.
                  data={
                    planOptions.some((option) => option.value === field.value) || field.value === ''
                      ? planOptions
                      : [...planOptions, { value: field.value, label: field.value }]
                  }
                  value={field.value}
                  onChange={(value) => field.onChange(value ?? '')}
                  onBlur={field.onBlur}
                  allowDeselect={false}
                  error={fieldErrorText(fieldState.error?.message, t)}
                  data-testid="contract-field-plan"
                />
              )}
            />
            {dateInput('startDate')}
            {dateInput('endDate')}
            {TEXT_FIELDS.map((name) => (
              <TextInput
                key={name}
                label={t(`contracts.fields.${name}`)}
                error={fieldErrorText(errors[name]?.message, t)}
                {...form.register(name)}
              />
            ))}
            {limitInput('maxOrganizations')}
            {limitInput('storageLimitGb', ' GB')}
          </SimpleGrid>
          <Textarea label={t('contracts.fields.address')} autosize minRows={2} {...form.register('address')} />
          <Textarea label={t('contracts.fields.details')} autosize minRows={2} {...form.register('details')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="contract-form-submit">
              {contract ? t('contracts.form.save') : t('contracts.form.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
