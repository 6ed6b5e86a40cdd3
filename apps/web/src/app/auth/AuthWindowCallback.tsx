import type { UserManager } from 'oidc-client-ts';
import { useEffect } from 'react';
import type { AuthWindowCallbackKind } from './auth-paths.ts';

const handled = new Set<string>();

/**
 * The popup or hidden frame the provider sent back: hands the answer to the app window that opened it (which
 * completes the sign-in) and renders nothing. Runs once per address, even under StrictMode's double effects.
 */
export function AuthWindowCallback({ kind, userManager }: { kind: AuthWindowCallbackKind; userManager: UserManager }) {
  useEffect(() => {
    const url = window.location.href;
    if (handled.has(url)) return;
    handled.add(url);
    const done = kind === 'popup' ? userManager.signinPopupCallback(url) : userManager.signinSilentCallback(url);
    done.catch((error: unknown) => console.error('Unauthentic callback detected', error));
  }, [kind, userManager]);
  return null;
}
