import { useCallback } from 'react';
import { useAuth } from 'react-oidc-context';
import { currentLanguage } from '../../i18n/index.ts';

/**
 * Ends the session at the provider, which returns to /signed-out and so leads home (and to the sign-in page). The
 * provider's pages follow the app's language.
 */
export function useSignOut(): () => Promise<void> {
  const auth = useAuth();
  return useCallback(() => auth.signoutRedirect({ extraQueryParams: { ui_locales: currentLanguage() } }), [auth]);
}
