import { useEffect, useRef } from 'react';
import { useAuth } from 'react-oidc-context';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { FullPageMessage } from '../../components/FullPageMessage.tsx';
import { useSignOut } from './useSignOut.ts';

/**
 * /logout (part 1 §2): signs out as the user menu does. Public, so a visitor who is not signed in is not asked to
 * sign in only to be signed out: they go home.
 */
export function LogoutPage() {
  const { t } = useTranslation();
  const auth = useAuth();
  const signOut = useSignOut();
  const started = useRef(false);
  const signedIn = auth.isAuthenticated;

  useEffect(() => {
    if (!signedIn || started.current) return;
    started.current = true;
    void signOut();
  }, [signedIn, signOut]);

  if (!auth.isLoading && !signedIn && !started.current) return <Navigate to="/" replace />;
  return <FullPageMessage loading title={t('auth.signingOut')} testId="signing-out" />;
}
