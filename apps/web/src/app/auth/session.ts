import type { User } from 'oidc-client-ts';
import type { AccessTokenProvider } from '../../api/client.ts';
import { currentLanguage } from '../../i18n/index.ts';
import type { SigninState } from './auth-paths.ts';

/** The parts of oidc-client-ts's UserManager the session helpers use (a fake in tests). */
export interface SessionManager {
  getUser(): Promise<User | null>;
  signinSilent(): Promise<User | null>;
  signinRedirect(args: {
    state: SigninState;
    ui_locales: string;
    extraQueryParams?: Record<string, string>;
  }): Promise<void>;
  removeUser(): Promise<void>;
}

/**
 * Sends the browser to the sign-in page; it comes back to `returnTo`. The page opens in the app's
 * language, and right after a sign-out it says so (`signed_out`, which other providers ignore).
 */
export function signInRedirect(
  manager: Pick<SessionManager, 'signinRedirect'>,
  returnTo: string,
  { signedOut = false }: { signedOut?: boolean } = {},
): Promise<void> {
  return manager.signinRedirect({
    state: { returnTo },
    ui_locales: currentLanguage(),
    ...(signedOut ? { extraQueryParams: { signed_out: '1' } } : {}),
  });
}

/**
 * The bearer token for API calls. Normally the stored one (renewed in the background before it expires); when it has
 * expired anyway (a laptop woke up, renewal failed) one renewal is tried, shared by all calls waiting for it. Without
 * a token the call goes out bare and its 401 starts a new sign-in.
 */
export function createAccessTokenProvider(
  manager: Pick<SessionManager, 'getUser' | 'signinSilent'>,
): AccessTokenProvider {
  let renewal: Promise<User | null> | undefined;
  return async () => {
    const user = await manager.getUser();
    if (!user) return undefined;
    if (!user.expired) return user.access_token;
    renewal ??= manager
      .signinSilent()
      .catch(() => null)
      .finally(() => (renewal = undefined));
    const renewed = await renewal;
    return renewed && !renewed.expired ? renewed.access_token : undefined;
  };
}

/** A second 401 this soon after a re-sign-in means signing in again does not help (e.g. a misconfigured API). */
export const REAUTHENTICATE_COOLDOWN_MS = 60_000;
const REAUTHENTICATED_AT_KEY = 'auth.reauthenticatedAt';

export interface ReauthenticateOptions {
  now?: () => number;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  currentPath?: () => string;
}

/**
 * What a 401 from any call does: forget the dead session and sign in again, returning to the current address.
 * Guarded so a server that keeps refusing fresh tokens cannot bounce the browser between app and provider forever.
 */
export function createReauthenticator(
  manager: Pick<SessionManager, 'signinRedirect' | 'removeUser'>,
  options: ReauthenticateOptions = {},
): () => void {
  const now = options.now ?? Date.now;
  const storage = options.storage ?? globalThis.sessionStorage;
  const currentPath = options.currentPath ?? (() => `${location.pathname}${location.search}${location.hash}`);
  let started = false;
  return () => {
    if (started) return;
    const last = Number(storage.getItem(REAUTHENTICATED_AT_KEY) ?? Number.NaN);
    if (Number.isFinite(last) && now() - last < REAUTHENTICATE_COOLDOWN_MS) {
      console.error('The server refused a freshly signed-in session; not signing in again.');
      return;
    }
    started = true;
    storage.setItem(REAUTHENTICATED_AT_KEY, String(now()));
    void manager
      .removeUser()
      .then(() => signInRedirect(manager, currentPath()))
      .catch((error: unknown) => {
        started = false;
        console.error('Unable to start signing in again', error);
      });
  };
}
