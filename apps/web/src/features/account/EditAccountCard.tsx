import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, FileButton, Group, SimpleGrid, Stack, TextInput, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  MAX_AVATAR_UPLOAD_BYTES,
  UpdateAccountAttributesRequestSchema,
  UpdateAccountRequestSchema,
  type Account,
} from '@pathology/contract';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { ValidationError } from '../../api/client.ts';
import { errorText, fieldErrorText } from '../../i18n/error-text.ts';
import { useSetAvatar, useUpdateAccount, useUpdateAccountAttributes } from './account.queries.ts';

const accountFormSchema = z.object({
  firstName: UpdateAccountRequestSchema.shape.firstName,
  lastName: UpdateAccountRequestSchema.shape.lastName,
  displayName: UpdateAccountRequestSchema.shape.displayName,
  affiliation: UpdateAccountAttributesRequestSchema.shape.affiliation,
  profile: UpdateAccountAttributesRequestSchema.shape.profile,
});

type AccountFormValues = z.input<typeof accountFormSchema>;

const toValues = (account: Account): AccountFormValues => ({
  firstName: account.firstName,
  lastName: account.lastName,
  displayName: account.displayName ?? '',
  affiliation: account.affiliation ?? '',
  profile: account.profile ?? '',
});

/** Edits the names shown everywhere (POST accounts/me/update), the profile texts and the picture. */
export function EditAccountCard({ account, onDone }: { account: Account; onDone: () => void }) {
  const { t } = useTranslation();
  const names = useUpdateAccount();
  const attributes = useUpdateAccountAttributes();
  const avatar = useSetAvatar();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<AccountFormValues, unknown, z.output<typeof accountFormSchema>>({
    values: toValues(account),
    resolver: zodResolver(accountFormSchema),
  });

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const { affiliation, profile, ...request } = values;
    try {
      await names.mutateAsync(request);
      await attributes.mutateAsync({ affiliation: affiliation || null, profile: profile || null });
      notifications.show({ color: 'teal', message: t('account.edit.saved') });
      onDone();
    } catch (error) {
      if (error instanceof ValidationError) {
        for (const [field, message] of Object.entries(error.errors)) {
          form.setError(field as keyof AccountFormValues, { type: 'server', message });
        }
      }
      setFailure(errorText(error, t));
    }
  });

  const pickPicture = (file: File | null) => {
    if (file == null) return;
    if (file.size > MAX_AVATAR_UPLOAD_BYTES) {
      setFailure(t('account.edit.pictureTooLarge'));
      return;
    }
    avatar.mutate(file, { onError: (error) => setFailure(errorText(error, t)) });
  };

  return (
    <Card withBorder radius="lg" padding="xl" shadow="xs" data-testid="account-edit">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <Title order={3} fz="h4">
            {t('account.edit.title')}
          </Title>
          {failure && (
            <Alert color="red" data-testid="account-edit-error">
              {failure}
            </Alert>
          )}
          <Group gap="sm">
            <FileButton onChange={pickPicture} accept="image/png,image/jpeg,image/webp">
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  leftSection={<IconPhotoUp size={16} />}
                  loading={avatar.isPending}
                  data-testid="account-avatar-upload"
                >
                  {t('account.edit.picture')}
                </Button>
              )}
            </FileButton>
            {account.avatarUrl && (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => avatar.mutate(null)}
                data-testid="account-avatar-remove"
              >
                {t('account.edit.removePicture')}
              </Button>
            )}
          </Group>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <TextInput
              label={t('account.fields.firstName')}
              required
              error={fieldErrorText(form.formState.errors.firstName?.message, t)}
              data-testid="account-edit-firstName"
              {...form.register('firstName')}
            />
            <TextInput
              label={t('account.fields.lastName')}
              required
              error={fieldErrorText(form.formState.errors.lastName?.message, t)}
              data-testid="account-edit-lastName"
              {...form.register('lastName')}
            />
          </SimpleGrid>
          <TextInput
            label={t('account.fields.displayName')}
            description={t('account.edit.displayNameHint')}
            error={fieldErrorText(form.formState.errors.displayName?.message, t)}
            data-testid="account-edit-displayName"
            {...form.register('displayName')}
          />
          <TextInput label={t('account.fields.affiliation')} {...form.register('affiliation')} />
          <Textarea label={t('account.fields.profile')} autosize minRows={3} {...form.register('profile')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={names.isPending || attributes.isPending} data-testid="account-edit-save">
              {t('account.edit.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
