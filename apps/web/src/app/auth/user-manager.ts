import type { AuthConfig } from '@pathology/contract';
import { UserManager, type UserManagerSettings } from 'oidc-client-ts';
import { AUTH_PATHS } from './auth-paths.ts';

/** Access tokens live 10 minutes; renewal starts this long before they run out. */
export const RENEW_BEFORE_EXPIRY_SECONDS = 60;

/**
 * oidc-client-ts settings from the server's auth config (GET auth/config): code flow with PKCE (the library's
 * default), every return address on this origin, and automatic silent renewal — with the refresh token that the
 * offline_access scope brings, else in a hidden frame at /auth/silent-callback. The user is kept in sessionStorage
 * (the library's default): one sign-in per tab, gone when the tab closes.
 */
export function createUserManagerSettings(config: AuthConfig, origin: string): UserManagerSettings {
  return {
    authority: config.authority,
    client_id: config.clientId,
    scope: config.scope,
    ...(config.resource === undefined ? {} : { resource: config.resource }),
    response_type: 'code',
    redirect_uri: `${origin}${AUTH_PATHS.callback}`,
    popup_redirect_uri: `${origin}${AUTH_PATHS.popupCallback}`,
    silent_redirect_uri: `${origin}${AUTH_PATHS.silentCallback}`,
    post_logout_redirect_uri: `${origin}${AUTH_PATHS.signedOut}`,
    automaticSilentRenew: true,
    accessTokenExpiringNotificationTimeInSeconds: RENEW_BEFORE_EXPIRY_SECONDS,
    // The profile comes with the ID token; the API answers for the account itself (GET accounts/me).
    loadUserInfo: false,
    monitorSession: false,
  };
}

export function createUserManager(config: AuthConfig, origin: string): UserManager {
  return new UserManager(createUserManagerSettings(config, origin));
}
