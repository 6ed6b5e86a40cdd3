import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications, notificationsStore } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { BUILD_META_URL } from '../../config.ts';
import { IconRefresh } from '@tabler/icons-react';
import { createUpdateChecker, fetchBuildDate, type UpdateChecker } from './update-checker.ts';

const TOAST_ID = 'app-update-available';

function UpdateToastBody({ onIgnore }: { onIgnore: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" mt={4}>
      <Text size="sm" c="dimmed">
        {t('update.toast.message')}
      </Text>
      <Group gap="xs" justify="flex-end">
        <Button size="xs" variant="default" onClick={onIgnore} data-testid="update-ignore">
          {t('update.toast.ignore')}
        </Button>
        <Button
          size="xs"
          leftSection={<IconRefresh size={14} />}
          onClick={() => window.location.reload()}
          data-testid="update-refresh"
        >
          {t('update.toast.refresh')}
        </Button>
      </Group>
    </Stack>
  );
}

/** Toast title that follows the language switch while the toast is open. */
function UpdateToastTitle() {
  const { t } = useTranslation();
  return <>{t('update.toast.title')}</>;
}

/** Runs the update checker for the page's life and shows its prompt as a toast at the top right. */
export function UpdateNotifier() {
  const checker = useRef<UpdateChecker | undefined>(undefined);

  useEffect(() => {
    // Read from Mantine's store, so a toast already on screen or waiting in the queue counts as active.
    const isPromptActive = () => {
      const { notifications: visible, queue } = notificationsStore.getState();
      return [...visible, ...queue].some((toast) => toast.id === TOAST_ID);
    };
    const onIgnore = () => {
      notifications.hide(TOAST_ID);
      checker.current?.ignore();
    };
    const instance = createUpdateChecker({
      fetchBuildDate: () => fetchBuildDate(BUILD_META_URL),
      isPromptActive,
      onUpdateAvailable: () =>
        notifications.show({
          id: TOAST_ID,
          position: 'top-right',
          title: <UpdateToastTitle />,
          message: <UpdateToastBody onIgnore={onIgnore} />,
          icon: <IconRefresh size={18} />,
          autoClose: false,
          withCloseButton: false,
          withBorder: true,
          'data-testid': 'update-toast',
        }),
    });
    checker.current = instance;
    void instance.start();
    return () => {
      instance.stop();
      notifications.hide(TOAST_ID);
    };
  }, []);

  return null;
}
