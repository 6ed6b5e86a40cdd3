/** The app's addresses the identity provider sends the browser back to (registered with the provider). */
export const AUTH_PATHS = {
  /** Redirect login lands here. */
  callback: '/auth/callback',
  /** Popup login's window lands here and hands the answer to the opener. */
  popupCallback: '/auth/popup-callback',
  /** Silent renewal's hidden frame lands here (only when no refresh token is at hand). */
  silentCallback: '/auth/silent-callback',
  /** Logout's return address; it leads on to the home page. */
  signedOut: '/signed-out',
} as const;

/** The spec's logout path (part 1 §2): visiting it signs out, as the user menu does. */
export const LOGOUT_PATH = '/logout';

export type AuthWindowCallbackKind = 'popup' | 'silent';

/** Popup and silent callbacks run in a window of their own: they only pass the answer on and render no app. */
export function authWindowCallbackKind(pathname: string): AuthWindowCallbackKind | undefined {
  if (pathname === AUTH_PATHS.popupCallback) return 'popup';
  if (pathname === AUTH_PATHS.silentCallback) return 'silent';
  return undefined;
}

/** Where a sign-in started, to go back there afterwards. */
export interface SigninState {
  returnTo: string;
}

// Returning to /logout after a sign-in would end the session just started.
const NO_RETURN_PATHS: readonly string[] = [...Object.values(AUTH_PATHS), LOGOUT_PATH];

/**
 * A same-origin path to go to after sign-in, or `/` when the value is missing, points to another site
 * (`//evil.example`, `/\evil.example`) or would start the auth flow over again.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return '/';
  }
  const pathname = value.split(/[?#]/, 1)[0] ?? '';
  return NO_RETURN_PATHS.includes(pathname) ? '/' : value;
}

/** The return address stored in a sign-in's state, made safe. */
export function returnToOf(state: unknown): string {
  const returnTo = typeof state === 'object' && state !== null ? (state as Partial<SigninState>).returnTo : undefined;
  return safeReturnTo(returnTo);
}

/** The full address of a location inside the app (window's or the router's): path, query and fragment. */
export function pathOf(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}
