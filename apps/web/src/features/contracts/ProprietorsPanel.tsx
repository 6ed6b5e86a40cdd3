import { ActionIcon, Alert, Button, Checkbox, Group, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Contract } from '@pathology/contract';
import { IconMailForward, IconMailPlus, IconUserMinus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ValidationError } from '../../api/client.ts';
import { errorText } from '../../i18n/error-text.ts';
import { useInviteProprietor, useRemoveProprietor } from './contracts.queries.ts';

/** A contract's proprietors: invite (and resend) by e-mail, remove with an optional purge of the account. */
export function ProprietorsPanel({ contract }: { contract: Contract }) {
  const { t } = useTranslation();
  const capabilities = contract.userCapabilities;
  const [inviting, setInviting] = useState(false);
  const [email, setEmail] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);
  const [purge, setPurge] = useState(false);
  const invite = useInviteProprietor(contract.id);
  const remove = useRemoveProprietor(contract.id);

  const send = (resend: boolean) =>
    invite.mutate(
      { request: { email }, resend },
      {
        onSuccess: (sent) => {
          notifications.show({ color: 'teal', message: t('users.invite.sent', { email: sent.email }) });
          setInviting(false);
          setEmail('');
        },
      },
    );
  const inviteError =
    invite.error instanceof ValidationError ? errorText(invite.error.errors.email ?? invite.error.message, t) : null;

  return (
    <Stack gap="xs" data-testid="contract-proprietors">
      {contract.proprietors.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('contracts.proprietors.none')}
        </Text>
      )}
      {contract.proprietors.map((owner) => (
        <Group key={owner.accountId} justify="space-between" wrap="nowrap">
          <Text size="sm" truncate="end">
            {owner.name}{' '}
            <Text span c="dimmed">
              ({owner.email})
            </Text>
          </Text>
          {capabilities.canRemoveMember && (
            <Tooltip label={t('contracts.proprietors.remove')}>
              <ActionIcon
                variant="subtle"
                color="red"
                onClick={() => setRemoving(owner.email)}
                aria-label={t('contracts.proprietors.removeNamed', { email: owner.email })}
                data-testid="contract-proprietor-remove"
              >
                <IconUserMinus size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      ))}
      {capabilities.canInviteUser && (
        <Button
          variant="subtle"
          size="xs"
          leftSection={<IconMailPlus size={14} />}
          onClick={() => setInviting(true)}
          data-testid="contract-invite"
          w="fit-content"
        >
          {t('contracts.proprietors.invite')}
        </Button>
      )}
      <Modal opened={inviting} onClose={() => setInviting(false)} title={t('contracts.proprietors.invite')} centered>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('contracts.proprietors.inviteLead', { name: contract.name })}
          </Text>
          <TextInput
            type="email"
            label={t('users.fields.email')}
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={inviteError}
            data-testid="contract-invite-email"
          />
          {invite.isError && !inviteError && <Alert color="red">{errorText(invite.error, t)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" leftSection={<IconMailForward size={16} />} onClick={() => send(true)}>
              {t('users.invite.resend')}
            </Button>
            <Button onClick={() => send(false)} loading={invite.isPending} data-testid="contract-invite-submit">
              {t('users.invite.submit')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal
        opened={removing != null}
        onClose={() => setRemoving(null)}
        title={t('contracts.proprietors.remove')}
        centered
      >
        <Stack gap="md">
          <Text size="sm">{t('contracts.proprietors.removeLead', { email: removing, name: contract.name })}</Text>
          <Checkbox
            label={t('users.remove.purge')}
            description={t('users.remove.purgeHint')}
            checked={purge}
            onChange={(event) => setPurge(event.currentTarget.checked)}
          />
          {remove.isError && <Alert color="red">{errorText(remove.error, t)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoving(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                removing && remove.mutate({ email: removing, purge }, { onSuccess: () => setRemoving(null) })
              }
              data-testid="contract-proprietor-remove-confirm"
            >
              {t('users.remove.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
