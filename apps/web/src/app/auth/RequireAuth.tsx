import { Button, Text, ThemeIcon } from '@mantine/core';
import { type ReactNode, useCallback, useEffect, useRef } from 'react';
import { useAuth } from 'react-oidc-context';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { FullPageMessage } from '../../components/FullPageMessage.tsx';
import { IconAlertCircle } from '@tabler/icons-react';
import { pathOf } from './auth-paths.ts';
import { signInRedirect } from './session.ts';
import { takeSignedOut } from './signed-out-flag.ts';

/**
 * Renders its children only for a signed-in user. Anyone else is sent to the provider's sign-in page at once and
 * comes back to the exact address they asked for (path, query and fragment).
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const auth = useAuth();
  const location = useLocation();
  const started = useRef(false);
  const returnTo = pathOf(location);

  const signIn = useCallback(() => {
    started.current = true;
    void signInRedirect(auth, returnTo, { signedOut: takeSignedOut() });
  }, [auth, returnTo]);

  const mustSignIn = !auth.isLoading && !auth.isAuthenticated && !auth.activeNavigator && !auth.error;
  useEffect(() => {
    if (mustSignIn && !started.current) signIn();
  }, [mustSignIn, signIn]);

  if (auth.isAuthenticated) return children;
  if (auth.error && !auth.isLoading && !auth.activeNavigator) {
    return (
      <FullPageMessage
        testId="sign-in-failed"
        title={t('auth.failed.title')}
        icon={
          <ThemeIcon size={56} radius="md" variant="light" color="red">
            <IconAlertCircle size={30} />
          </ThemeIcon>
        }
        actions={<Button onClick={signIn}>{t('auth.signInAgain')}</Button>}
      >
        <Text>{t('auth.failed.description')}</Text>
      </FullPageMessage>
    );
  }
  return <FullPageMessage loading title={t('auth.redirecting')} testId="signing-in" />;
}
