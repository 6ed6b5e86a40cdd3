import { Button, Code, Text, ThemeIcon } from '@mantine/core';
import { ErrorResponse, type User } from 'oidc-client-ts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FullPageMessage } from '../../components/FullPageMessage.tsx';
import { IconAlertCircle } from '@tabler/icons-react';
import { returnToOf } from './auth-paths.ts';
import { signInRedirect } from './session.ts';
import { useUserManager } from './user-manager-context.ts';

// One completion per callback address: StrictMode runs effects twice, and a code can be redeemed only once.
const completions = new Map<string, Promise<User>>();

interface ProviderRefusal {
  /** OAuth error code, e.g. access_denied when the user pressed Cancel on the sign-in page. */
  error: string;
  description: string | null;
  returnTo: string;
}

/**
 * /auth/callback: the provider's redirect after login. Redeems the code (PKCE and state are checked by
 * oidc-client-ts) and goes back to the address the sign-in started from. A callback that matches no sign-in started
 * in this tab is logged as unauthentic and leads home (spec part 1 §8). A genuine answer in which the provider
 * refuses (the user cancelled, the account is locked) is shown with a button to try again, rather than bouncing
 * straight back to the provider.
 */
export function SigninCallbackPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const userManager = useUserManager();
  const [refusal, setRefusal] = useState<ProviderRefusal>();

  useEffect(() => {
    let cancelled = false;
    const url = window.location.href;
    let completion = completions.get(url);
    if (!completion) {
      completion = userManager.signinRedirectCallback(url);
      completions.set(url, completion);
    }
    completion.then(
      (user) => {
        if (!cancelled) void navigate(returnToOf(user.state), { replace: true });
      },
      (error: unknown) => {
        if (cancelled) return;
        if (error instanceof ErrorResponse && error.error) {
          setRefusal({ error: error.error, description: error.error_description, returnTo: returnToOf(error.state) });
          return;
        }
        console.error('Unauthentic callback detected', error);
        void navigate('/', { replace: true });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [navigate, userManager]);

  if (!refusal) return <FullPageMessage loading title={t('auth.completing')} testId="auth-callback" />;
  const wasCancelled = refusal.error === 'access_denied';
  return (
    <FullPageMessage
      testId="sign-in-refused"
      title={wasCancelled ? t('auth.cancelled.title') : t('auth.failed.title')}
      icon={
        // A cancelled sign-in is the user's choice, not a failure: it keeps the app's mark.
        wasCancelled ? undefined : (
          <ThemeIcon size={56} radius="md" variant="light" color="red">
            <IconAlertCircle size={30} />
          </ThemeIcon>
        )
      }
      actions={
        <Button onClick={() => void signInRedirect(userManager, refusal.returnTo)} data-testid="sign-in-again">
          {t('auth.signInAgain')}
        </Button>
      }
    >
      <Text>{wasCancelled ? t('auth.cancelled.description') : t('auth.failed.description')}</Text>
      {!wasCancelled && <Code>{refusal.description ?? refusal.error}</Code>}
    </FullPageMessage>
  );
}
