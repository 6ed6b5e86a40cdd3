import type { Page } from 'playwright-core';

export type Language = 'ja' | 'en';

/** Opens the header's user menu and waits for it. */
export async function openUserMenu(page: Page): Promise<void> {
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('user-menu').waitFor();
}

/** Switches the UI language through the user menu, as a user does, and waits for the page to follow. */
export async function switchLanguage(page: Page, language: Language): Promise<void> {
  await openUserMenu(page);
  await page.getByTestId(`language-${language}`).click();
  await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
  await page.getByTestId('user-menu').waitFor({ state: 'hidden' });
}

/** Mantine's toasts and popovers animate; a screenshot waits for them to settle. */
export async function settle(page: Page, ms = 350): Promise<void> {
  await page.waitForTimeout(ms);
}

/** Waits until the shell has loaded what it shows: the menu (roles) and the group picker. */
export async function waitForShell(page: Page): Promise<void> {
  await page.locator('[data-testid="main-menu"][aria-busy="false"]').waitFor();
  await page
    .locator('[data-testid="organization-picker"], [data-testid="organization-picker-empty"]')
    .first()
    .waitFor();
}
