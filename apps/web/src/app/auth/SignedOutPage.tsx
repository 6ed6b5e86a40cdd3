import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FullPageMessage } from '../../components/FullPageMessage.tsx';
import { rememberSignedOut } from './signed-out-flag.ts';
import { useUserManager } from './user-manager-context.ts';

/** /signed-out: the provider's return address after logout. Tidies the logout request away and leads home. */
export function SignedOutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const userManager = useUserManager();

  useEffect(() => {
    let cancelled = false;
    // The stored logout state is only housekeeping: whatever the outcome, the user goes home.
    userManager
      .signoutRedirectCallback(window.location.href)
      .catch(() => undefined)
      .finally(() => {
        if (cancelled) return;
        rememberSignedOut();
        void navigate('/', { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [navigate, userManager]);

  return <FullPageMessage loading title={t('auth.signedOut')} testId="signed-out" />;
}
