import { FormErrorBanner } from './FormErrorBanner.tsx';
import { Alert, Button, Center, Group, Loader, Paper, Select, SimpleGrid, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ValidationError } from '../../api/client.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorText } from '../../i18n/error-text.ts';
import { useAccountRoles } from '../account/account.queries.ts';
import { isPickerSearchable } from '../organizations/current-organization.ts';
import { useCurrentOrganization } from '../organizations/useCurrentOrganization.ts';
import { CaseFormFields } from './CaseFormFields.tsx';
import { useCreateCase } from './case-detail.queries.ts';
import {
  EMPTY_CASE_FORM,
  createCaseFormSchema,
  firstErrorMessage,
  serverFieldErrors,
  toCreateRequest,
  type CaseFormValues,
  type CreateCaseFormOutput,
} from './case-form.ts';
import { fieldErrorText } from './field-error-text.ts';

/** /cases/new: super users, or members who may create cases in the current group. */
export function CreateCasePage() {
  const { t } = useTranslation();
  const roles = useAccountRoles();
  const { organizations, current } = useCurrentOrganization();
  if (roles.isPending || organizations.isPending) {
    return (
      <Center mih="40vh">
        <Loader type="dots" />
      </Center>
    );
  }
  const isSuperUser = roles.data?.checks.isSuperUser === true;
  const creatable = (organizations.data?.data ?? []).filter((group) => group.userCapabilities.canCreateCase);
  const allowed = isSuperUser || current?.userCapabilities.canCreateCase === true;
  return (
    <Stack gap="xl">
      <PageHeader title={t('caseDetail.create.title')} description={t('caseDetail.create.description')} />
      {allowed ? (
        <CreateCaseForm
          isSuperUser={isSuperUser}
          groups={creatable.map((group) => ({ value: group.id, label: group.name }))}
          defaultOwner={current?.userCapabilities.canCreateCase ? current.id : null}
        />
      ) : (
        <Alert
          color="gray"
          variant="light"
          icon={<IconAlertCircle size={20} />}
          title={t('caseDetail.create.notAllowed')}
          data-testid="case-create-denied"
        >
          <Button component={Link} to="/cases" variant="light" size="xs" mt="xs">
            {t('caseDetail.header.back')}
          </Button>
        </Alert>
      )}
    </Stack>
  );
}

interface CreateCaseFormProps {
  isSuperUser: boolean;
  groups: { value: string; label: string }[];
  defaultOwner: string | null;
}

function CreateCaseForm({ isSuperUser, groups, defaultOwner }: CreateCaseFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm<CaseFormValues, unknown, CreateCaseFormOutput>({
    defaultValues: { ...EMPTY_CASE_FORM, ownerOrganizationId: defaultOwner },
    resolver: zodResolver(createCaseFormSchema(isSuperUser)),
    mode: 'onChange',
  });
  const create = useCreateCase();
  const [banner, setBanner] = useState<string[] | null>(null);
  const searchable = isPickerSearchable(groups.length);

  const submit = form.handleSubmit((values) => {
    setBanner(null);
    // Spec part 1 §7: creation errors are shown on the form, never thrown.
    create.mutate(toCreateRequest(values, isSuperUser), {
      onSuccess: (created) => {
        notifications.show({ color: 'teal', message: t('caseDetail.create.done', { caseNumber: created.caseNumber }) });
        void navigate(`/cases/${encodeURIComponent(created.id)}`);
      },
      onError: (error) => {
        if (error instanceof ValidationError) {
          const { fields, other } = serverFieldErrors(error.errors);
          for (const [field, message] of Object.entries(fields)) {
            form.setError(field as keyof CaseFormValues, { type: 'server', message });
          }
          setBanner(other);
        } else {
          setBanner([errorText(error, t)]);
        }
      },
    });
  });

  const groupSelect = (field: 'ownerOrganizationId' | 'intendedOwnerOrganizationId') => (
    <Controller
      control={form.control}
      name={field}
      render={({ field: input, fieldState }) => (
        <Select
          label={t(`caseDetail.fields.${field}`)}
          placeholder={t('caseDetail.create.chooseGroup')}
          data={groups}
          value={input.value}
          onChange={input.onChange}
          onBlur={input.onBlur}
          ref={input.ref}
          error={fieldErrorText(firstErrorMessage(fieldState.error), t)}
          searchable={searchable}
          nothingFoundMessage={t('caseDetail.nothingFound')}
          withAsterisk
          allowDeselect={false}
          data-testid={`case-form-${field}`}
        />
      )}
    />
  );

  return (
    <Paper
      withBorder
      radius="lg"
      p="lg"
      component="form"
      onSubmit={(event) => void submit(event)}
      noValidate
      data-testid="case-create-form"
    >
      <Stack gap="lg">
        {banner && <FormErrorBanner title={t('caseDetail.create.failed')} messages={banner} />}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {groupSelect('ownerOrganizationId')}
          {isSuperUser && groupSelect('intendedOwnerOrganizationId')}
        </SimpleGrid>
        <CaseFormFields control={form.control} register={form.register} disabled={create.isPending} />
        <Group justify="flex-end" gap="sm">
          <Button component={Link} to="/cases" variant="default">
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending} disabled={create.isPending} data-testid="case-form-save">
            {t('caseDetail.create.submit')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
