import { Button, Text, ThemeIcon } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { AuthConfig } from '@pathology/contract';
import type { UserManager } from 'oidc-client-ts';
import type { ReactNode } from 'react';
import { AuthProvider } from 'react-oidc-context';
import { useTranslation } from 'react-i18next';
import { setAccessTokenProvider, setUnauthorizedHandler } from '../../api/client.ts';
import { FullPageMessage } from '../../components/FullPageMessage.tsx';
import { IconCloudOff } from '@tabler/icons-react';
import { errorText } from '../../i18n/error-text.ts';
import { authConfigQuery } from './auth-config.queries.ts';
import { authWindowCallbackKind } from './auth-paths.ts';
import { AuthWindowCallback } from './AuthWindowCallback.tsx';
import { createAccessTokenProvider, createReauthenticator } from './session.ts';
import { createUserManager } from './user-manager.ts';
import { UserManagerContext } from './user-manager-context.ts';

let session: { key: string; userManager: UserManager } | undefined;

/**
 * The page's one UserManager, wired into the API client before anything can call the API. Kept outside React state:
 * StrictMode runs state initialisers twice, and a second manager renewing in the background would spend the rotating
 * refresh token behind the first one's back.
 */
function sessionFor(config: AuthConfig): UserManager {
  const key = JSON.stringify(config);
  if (session?.key !== key) {
    const userManager = createUserManager(config, window.location.origin);
    setAccessTokenProvider(createAccessTokenProvider(userManager));
    setUnauthorizedHandler(createReauthenticator(userManager));
    session = { key, userManager };
  }
  return session.userManager;
}

function Session({ config, children }: { config: AuthConfig; children: ReactNode }) {
  const userManager = sessionFor(config);
  const callbackKind = authWindowCallbackKind(window.location.pathname);
  if (callbackKind) return <AuthWindowCallback kind={callbackKind} userManager={userManager} />;
  return (
    <UserManagerContext value={userManager}>
      {/* /auth/callback is completed by its own route, which knows where to go next. */}
      <AuthProvider userManager={userManager} skipSigninCallback>
        {children}
      </AuthProvider>
    </UserManagerContext>
  );
}

/**
 * Loads the sign-in settings from the server (GET auth/config) and provides the OIDC session to the app. Popup and
 * silent-renew windows stop here: they only hand the provider's answer to the window that opened them.
 */
export function AuthRoot({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const config = useQuery(authConfigQuery());

  if (config.isPending) return <FullPageMessage loading title={t('auth.starting')} testId="app-starting" />;
  if (config.isError) {
    return (
      <FullPageMessage
        testId="auth-config-failed"
        title={t('auth.configFailed.title')}
        icon={
          <ThemeIcon size={56} radius="md" variant="light" color="red">
            <IconCloudOff size={30} />
          </ThemeIcon>
        }
        actions={
          <Button loading={config.isFetching} onClick={() => void config.refetch()}>
            {t('auth.configFailed.retry')}
          </Button>
        }
      >
        <Text>{t('auth.configFailed.description')}</Text>
        <Text size="sm">{errorText(config.error, t)}</Text>
      </FullPageMessage>
    );
  }
  return <Session config={config.data}>{children}</Session>;
}
