import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { GROUP_ROLES, InvitationRequestSchema, type GroupRole, type InvitationRequest } from '@pathology/contract';
import { IconMailPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ValidationError } from '../../api/client.ts';
import { errorText, fieldErrorText } from '../../i18n/error-text.ts';
import { useInvite } from './users.queries.ts';

interface InviteValues {
  email: string;
  firstName: string;
  lastName: string;
  roles: GroupRole[];
}

/** "Invite user": e-mail, names and role; the invited person gets a mail with a link to set their password. */
export function InviteUserButton({
  organizationId,
  organizationName,
}: {
  organizationId: string;
  organizationName: string;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const invite = useInvite(organizationId);
  const form = useForm<InviteValues, unknown, InvitationRequest>({
    defaultValues: { email: '', firstName: '', lastName: '', roles: ['member'] },
    resolver: zodResolver(InvitationRequestSchema),
  });

  const submit = form.handleSubmit((request) =>
    invite.mutate(
      { request, resend: false },
      {
        onSuccess: (sent) => {
          notifications.show({ color: 'teal', message: t('users.invite.sent', { email: sent.email }) });
          setOpened(false);
          form.reset();
        },
        onError: (error) => {
          if (!(error instanceof ValidationError)) return;
          for (const [field, message] of Object.entries(error.errors)) {
            form.setError(field as keyof InviteValues, { type: 'server', message });
          }
        },
      },
    ),
  );

  return (
    <>
      <Button leftSection={<IconMailPlus size={16} />} onClick={() => setOpened(true)} data-testid="users-invite">
        {t('users.invite.button')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('users.invite.title')} centered>
        <form onSubmit={(event) => void submit(event)} noValidate data-testid="users-invite-form">
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {t('users.invite.lead', { name: organizationName })}
            </Text>
            {invite.isError && !(invite.error instanceof ValidationError) && (
              <Alert color="red" data-testid="users-invite-error">
                {errorText(invite.error, t)}
              </Alert>
            )}
            <TextInput
              type="email"
              label={t('users.fields.email')}
              required
              error={fieldErrorText(form.formState.errors.email?.message, t)}
              data-testid="users-invite-email"
              {...form.register('email')}
            />
            <SimpleGrid cols={2}>
              <TextInput
                label={t('users.fields.firstName')}
                required
                error={fieldErrorText(form.formState.errors.firstName?.message, t)}
                data-testid="users-invite-firstName"
                {...form.register('firstName')}
              />
              <TextInput
                label={t('users.fields.lastName')}
                required
                error={fieldErrorText(form.formState.errors.lastName?.message, t)}
                data-testid="users-invite-lastName"
                {...form.register('lastName')}
              />
            </SimpleGrid>
            <Controller
              control={form.control}
              name="roles"
              render={({ field }) => (
                <Select
                  label={t('users.fields.role')}
                  data={GROUP_ROLES.map((role) => ({ value: role, label: t(`groupAdmin.roles.${role}`) }))}
                  value={field.value[0] ?? null}
                  onChange={(role) => field.onChange(role ? [role] : [])}
                  allowDeselect={false}
                  data-testid="users-invite-role"
                />
              )}
            />
            <Button type="submit" loading={invite.isPending} data-testid="users-invite-submit">
              {t('users.invite.submit')}
            </Button>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
