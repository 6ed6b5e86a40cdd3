import { Alert, Button, List, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { formatGigabytes, type Organization } from '@pathology/contract';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifications } from '@mantine/notifications';
import { errorText } from '../../i18n/error-text.ts';
import { useDeleteOrganization, useOrganizationPurgeCheck } from './organizations.queries.ts';

/**
 * Deleting a group takes its cases, images and attachments with it: the confirmation names how many, and the
 * group's name must be typed before the button works.
 */
export function DeleteOrganizationButton({ organization }: { organization: Organization }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const [typed, setTyped] = useState('');
  const check = useOrganizationPurgeCheck(organization.id, opened);
  const remove = useDeleteOrganization(organization.id);

  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: t('groupAdmin.delete.done', { name: organization.name }) });
        void navigate('/organizations');
      },
    });

  return (
    <>
      <Button
        color="red"
        variant="light"
        leftSection={<IconTrash size={16} />}
        onClick={() => setOpened(true)}
        data-testid="organization-delete"
      >
        {t('groupAdmin.delete.button')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('groupAdmin.delete.title')} centered>
        <Stack gap="md" data-testid="organization-delete-dialog">
          <Text size="sm">{t('groupAdmin.delete.lead', { name: organization.name })}</Text>
          {check.isPending ? (
            <Loader size="sm" />
          ) : check.data ? (
            <List size="sm" data-testid="organization-purge-check">
              <List.Item>{t('groupAdmin.delete.cases', { count: check.data.caseCount })}</List.Item>
              <List.Item>{t('groupAdmin.delete.images', { count: check.data.imageCount })}</List.Item>
              <List.Item>{t('groupAdmin.delete.attachments', { count: check.data.attachmentCount })}</List.Item>
              <List.Item>{t('groupAdmin.delete.members', { count: check.data.memberCount })}</List.Item>
              <List.Item>{formatGigabytes(check.data.totalBytes, i18n.language)}</List.Item>
            </List>
          ) : (
            <Alert color="red">{errorText(check.error, t)}</Alert>
          )}
          <TextInput
            label={t('groupAdmin.delete.typeName')}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            data-testid="organization-delete-name"
          />
          {remove.isError && <Alert color="red">{errorText(remove.error, t)}</Alert>}
          <Button
            color="red"
            onClick={confirm}
            loading={remove.isPending}
            disabled={typed.trim() !== organization.name}
            data-testid="organization-delete-confirm"
          >
            {t('groupAdmin.delete.confirm')}
          </Button>
        </Stack>
      </Modal>
    </>
  );
}
