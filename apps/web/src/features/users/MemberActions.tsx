import { ActionIcon, Alert, Button, Checkbox, Group, Menu, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Membership } from '@pathology/contract';
import { IconDots, IconMailForward, IconUserMinus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text.ts';
import { useInvite, useRemoveMember } from './users.queries.ts';

/** A member's row menu: resend a pending invitation, remove from the group (optionally purging the account). */
export function MemberActions({ organizationId, member }: { organizationId: string; member: Membership }) {
  const { t } = useTranslation();
  const [removing, setRemoving] = useState(false);
  const [purge, setPurge] = useState(false);
  const invite = useInvite(organizationId);
  const remove = useRemoveMember(organizationId);

  const resend = () =>
    invite.mutate(
      {
        request: { email: member.email, firstName: member.firstName, lastName: member.lastName, roles: member.roles },
        resend: true,
      },
      {
        onSuccess: () =>
          notifications.show({ color: 'teal', message: t('users.invite.resent', { email: member.email }) }),
        onError: (error) => notifications.show({ color: 'red', message: errorText(error, t) }),
      },
    );

  const confirmRemoval = () =>
    remove.mutate(
      { email: member.email, purge },
      {
        onSuccess: (result) => {
          setRemoving(false);
          notifications.show({
            color: 'teal',
            message: t(result.accountDeleted ? 'users.remove.purged' : 'users.remove.done', { email: member.email }),
          });
        },
      },
    );

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={t('users.actions', { email: member.email })}
            data-testid="member-actions"
          >
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {member.invited && (
            <Menu.Item leftSection={<IconMailForward size={16} />} onClick={resend} data-testid="member-resend">
              {t('users.invite.resend')}
            </Menu.Item>
          )}
          <Menu.Item
            color="red"
            leftSection={<IconUserMinus size={16} />}
            onClick={() => setRemoving(true)}
            data-testid="member-remove"
          >
            {t('users.remove.button')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={removing} onClose={() => setRemoving(false)} title={t('users.remove.title')} centered>
        <Stack gap="md" data-testid="member-remove-dialog">
          <Text size="sm">{t('users.remove.lead', { email: member.email })}</Text>
          <Checkbox
            label={t('users.remove.purge')}
            description={t('users.remove.purgeHint')}
            checked={purge}
            onChange={(event) => setPurge(event.currentTarget.checked)}
            data-testid="member-remove-purge"
          />
          {remove.isError && <Alert color="red">{errorText(remove.error, t)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoving(false)}>
              {t('common.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={confirmRemoval} data-testid="member-remove-confirm">
              {t('users.remove.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
