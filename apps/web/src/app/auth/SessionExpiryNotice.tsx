import { Button, Group, Stack, Text } from '@mantine/core';
import type { UserManager } from 'oidc-client-ts';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/index.ts';
import { pathOf } from './auth-paths.ts';
import { signInRedirect } from './session.ts';
import { useUserManager } from './user-manager-context.ts';

const TOAST_ID = 'session-expired';

function ExpiredTitle() {
  const { t } = useTranslation();
  return <>{t('auth.expired.title')}</>;
}

/** Rendered by the toast system, outside the app's providers: the UserManager comes as a prop. */
function ExpiredBody({ userManager }: { userManager: UserManager }) {
  const { t } = useTranslation();
  // A popup keeps this page (and anything typed into it) as it is; a blocked popup falls back to the redirect.
  const signInInPopup = () => {
    userManager.signinPopup({ ui_locales: currentLanguage() }).catch((error: unknown) => {
      if (error instanceof Error && /closed/i.test(error.message)) return;
      void signInRedirect(userManager, pathOf(window.location));
    });
  };
  return (
    <Stack gap="sm" mt={4}>
      <Text size="sm" c="dimmed">
        {t('auth.expired.message')}
      </Text>
      <Group justify="flex-end">
        <Button size="xs" onClick={signInInPopup} data-testid="session-sign-in">
          {t('auth.expired.action')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * When the access token runs out without a renewal (the provider's session ended, the network was gone), offers
 * popup sign-in in a toast; a renewed or new sign-in takes the toast away.
 */
export function SessionExpiryNotice() {
  const userManager = useUserManager();
  useEffect(() => {
    const removeExpired = userManager.events.addAccessTokenExpired(() => {
      notifications.show({
        id: TOAST_ID,
        color: 'orange',
        title: <ExpiredTitle />,
        message: <ExpiredBody userManager={userManager} />,
        autoClose: false,
        withCloseButton: false,
        withBorder: true,
        'data-testid': 'session-expired',
      });
    });
    const removeLoaded = userManager.events.addUserLoaded(() => {
      notifications.hide(TOAST_ID);
    });
    return () => {
      removeExpired();
      removeLoaded();
    };
  }, [userManager]);
  return null;
}
