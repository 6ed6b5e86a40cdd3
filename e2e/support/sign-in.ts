import type { AuthConfig } from '@pathology/contract';
import { InMemoryWebStorage, OidcClient, WebStorageStateStore } from 'oidc-client-ts';
import type { Page } from 'playwright-core';
import { DEMO_ACCOUNTS } from '../../apps/server/src/db/seed/demo-accounts.ts';
import { createUserManagerSettings } from '../../apps/web/src/app/auth/user-manager.ts';
import { getStorageItem, setStorageItem, storageKeys } from './storage.ts';

export type DemoRole = (typeof DEMO_ACCOUNTS)[number]['key'];
export const DEMO_ROLES: readonly DemoRole[] = DEMO_ACCOUNTS.map((account) => account.key);

export function demoAccount(role: DemoRole): { email: string; password: string } {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.key === role);
  if (!account) throw new Error(`no demo account ${role}`);
  return account;
}

/** True on the built-in provider's pages (sign-in form, sign-out), false in the app. */
export function isProviderPage(url: URL): boolean {
  return url.pathname.startsWith('/oidc/');
}

/** Waits for the provider's sign-in page (where the app sent the browser) and returns. */
export async function waitForLoginPage(page: Page): Promise<void> {
  await page.waitForURL((url) => url.pathname.startsWith('/oidc/interaction/'));
  await page.locator('#login').waitFor();
}

/**
 * Fills the real sign-in form of the built-in provider and submits it, then waits until the app has completed the
 * callback and shown its shell.
 */
export async function submitLoginForm(page: Page, role: DemoRole): Promise<void> {
  const { email, password } = demoAccount(role);
  await waitForLoginPage(page);
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await page.locator('#login button[type=submit]').click();
  await page.waitForURL((url) => !isProviderPage(url) && !url.pathname.startsWith('/auth/'));
  await page.getByTestId('main-menu').waitFor();
  await page.locator('[data-testid="main-menu"][aria-busy="false"]').waitFor();
}

/**
 * Opens `path` signed out, is sent by the app to the login page, signs in as `role` there and lands back on `path`:
 * the sign-in as a user sees it, for the journeys about signing in and out, sessions and first loads.
 */
export async function signInThroughApp(page: Page, role: DemoRole, path = '/'): Promise<void> {
  await page.goto(path);
  await submitLoginForm(page, role);
}

/** The language a tab without a stored choice asks the login page for (the web app's DEFAULT_LANGUAGE). */
const APP_DEFAULT_LANGUAGE = 'ja';

/**
 * Signs in as `role` through the real login page and code flow and lands on `path`, with one load of the app instead
 * of two: the sign-in request the app would make on a signed-out visit (its own oidc-client-ts settings, PKCE, state
 * returning to `path`) is made here, the browser starts at the provider with it, and its state is stored where the
 * app's callback looks for it (localStorage, `oidc.<state id>`). The callback then redeems the code as after any
 * sign-in.
 */
export async function signIn(page: Page, role: DemoRole, path = '/'): Promise<void> {
  const configResponse = await page.request.get('/api/v1/auth/config');
  if (!configResponse.ok()) throw new Error(`GET auth/config answered ${configResponse.status()}`);
  const config = (await configResponse.json()) as AuthConfig;
  const pending = new InMemoryWebStorage();
  const client = new OidcClient({
    ...createUserManagerSettings(config, new URL(configResponse.url()).origin),
    stateStore: new WebStorageStateStore({ store: pending }),
  });
  const request = await client.createSigninRequest({
    state: { returnTo: path },
    ui_locales: APP_DEFAULT_LANGUAGE,
  });
  await page.goto(request.url);
  await waitForLoginPage(page);
  const keys = Array.from({ length: pending.length }, (_, index) => pending.key(index));
  for (const key of keys) await setStorageItem(page, 'localStorage', key, pending.getItem(key));
  await submitLoginForm(page, role);
}

/** The menu entries the page shows, in order, as their keys (`nav-<key>` test ids). */
export async function menuKeys(page: Page): Promise<string[]> {
  const ids = await page
    .getByTestId('main-menu')
    .locator('[data-testid^="nav-"]:not([data-testid^="nav-badge-"])')
    .evaluateAll((links) => links.map((link) => link.getAttribute('data-testid') ?? ''));
  return ids.map((id) => id.replace(/^nav-/, ''));
}

/** The bearer token the app holds (oidc-client-ts keeps the user in sessionStorage), to call the API directly. */
export async function accessToken(page: Page): Promise<string> {
  const key = (await storageKeys(page, 'sessionStorage')).find((candidate) => candidate.startsWith('oidc.user:'));
  const stored = key === undefined ? null : await getStorageItem(page, 'sessionStorage', key);
  const token = stored === null ? undefined : (JSON.parse(stored) as { access_token?: string }).access_token;
  if (!token) throw new Error('the page holds no access token');
  return token;
}
