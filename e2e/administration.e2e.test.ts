import type { OrganizationList } from '@pathology/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { slidePath } from '../apps/server/test/testdata.ts';
import { launchBrowser, openAppPage, withAppPage } from './support/browser.ts';
import { apiCall, pickOption } from './support/case-api.ts';
import { sidewaysFit } from './support/layout.ts';
import { openUserMenu, settle, switchLanguage, waitForShell, type Language } from './support/shell.ts';
import { signIn, waitForLoginPage } from './support/sign-in.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const TEXTS = {
  en: { invited: 'Invited', storageFull: "This upload would exceed the group's storage limit." },
  ja: { invited: '招待中', storageFull: 'このアップロードはグループのストレージ上限を超えます。' },
} as const;

/** Signs in and shows the app in `language` (Japanese is the default). */
async function signInAs(page: Page, role: Parameters<typeof signIn>[1], path: string, language: Language) {
  await signIn(page, role, path);
  await waitForShell(page);
  if (language === 'en') await switchLanguage(page, 'en');
}

/** Deletes a group this journey made, with its cases, if it is still there (best effort). */
async function deleteGroupAsSuper(name: string): Promise<void> {
  const app = await openAppPage(browser, baseURL);
  try {
    await signIn(app.page, 'super', '/organizations');
    const { json } = await apiCall(app.page, 'GET', '/organizations');
    const group = (json as OrganizationList).data.find((candidate) => candidate.name === name);
    if (group) await apiCall(app.page, 'DELETE', `/organizations/lazy/${group.id}?recursive=true`);
  } catch (error) {
    console.warn(`e2e cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await app.close();
  }
}

/** The invitation link of the newest mail to `email`, read by a super user on the outbox screen. */
async function invitationLinkFromOutbox(email: string, language: Language): Promise<string> {
  let link = '';
  await withAppPage(browser, baseURL, `administration-outbox-${language}`, async (app) => {
    const { page } = app;
    // The feature list names the server's version; the user menu leads on to the outbox.
    await signInAs(page, 'super', '/feature-list', language);
    await expect.poll(() => page.getByTestId('feature-list-version').innerText()).toMatch(/\d+\.\d+\.\d+/);
    expect(await page.getByTestId('feature').count()).toBeGreaterThan(10);
    await settle(page);
    await app.screenshot(`administration-feature-list-${language}`);
    await openUserMenu(page);
    await page.getByTestId('user-menu-outbox').click();
    const mail = page.locator(`[data-testid="outbox-mail"][data-to="${email}"]`).first();
    await mail.waitFor();
    await mail.getByRole('button').first().click();
    const text = await mail.getByTestId('outbox-text').innerText();
    const match = /https?:\/\/\S+?(\/invitations\/[A-Za-z0-9_-]+)/.exec(text);
    expect(match).not.toBeNull();
    link = match![1]!;
    // The invitation address is a link to the app itself.
    const anchor = mail.getByTestId('outbox-link').filter({ hasText: link }).first();
    expect(await anchor.getAttribute('href')).toBe(`${baseURL}${link}`);
    await settle(page);
    await app.screenshot(`administration-outbox-${language}`);
  });
  return link;
}

describe('administration: invitations, contracts, groups, storage limits, roles and my account', () => {
  for (const language of ['en', 'ja'] as const) {
    it(`an administrator invites a person, who sets a password, signs in and sees the group (${language})`, async () => {
      const email = `invitee-${language}-${Date.now()}@example.test`;
      let groupName = '';
      await withAppPage(browser, baseURL, `administration-invite-${language}`, async (app) => {
        const { page } = app;
        await signInAs(page, 'admin', '/users', language);
        await page.getByTestId('users-table').waitFor();
        groupName = await page.getByTestId('users-group').inputValue();
        await page.getByTestId('users-invite').click();
        const form = page.getByTestId('users-invite-form');
        // The form's own checks, in the user's language, before anything is sent.
        await page.getByTestId('users-invite-submit').click();
        await form.locator('.mantine-InputWrapper-error').first().waitFor();
        await page.getByTestId('users-invite-email').fill(email);
        await page.getByTestId('users-invite-firstName').fill('Haruka');
        await page.getByTestId('users-invite-lastName').fill('Inoue');
        await settle(page);
        await app.screenshot(`administration-invite-form-${language}`);
        await page.getByTestId('users-invite-submit').click();
        await form.waitFor({ state: 'hidden' });
        await page.getByTestId('users-filter-value').fill(`invitee-${language}`);
        const row = page.locator(`[data-testid="users-row"][data-email="${email}"]`);
        await row.getByText(TEXTS[language].invited).waitFor();
        await settle(page);
        await app.screenshot(`administration-users-${language}`);
        expect(app.consoleErrors).toEqual([]);
      });

      const link = await invitationLinkFromOutbox(email, language);

      await withAppPage(browser, baseURL, `administration-accept-${language}`, async (app) => {
        const { page } = app;
        await page.goto(`${link}?lang=${language}`);
        await page.locator('#password').fill('short');
        await page.locator('#confirm').fill('short');
        await page.locator('#password').evaluate((input) => input.removeAttribute('minlength'));
        await page.locator('#confirm').evaluate((input) => input.removeAttribute('minlength'));
        await page.getByRole('button').click();
        await page.getByTestId('invitation-error').waitFor();
        await page.locator('#password').fill('haruka-new-password');
        await page.locator('#confirm').fill('haruka-new-password');
        await app.screenshot(`administration-set-password-${language}`);
        await page.getByRole('button').click();
        await page.getByTestId('invitation-sign-in').click();
        await waitForLoginPage(page);
        await page.locator('#email').fill(email);
        await page.locator('#password').fill('haruka-new-password');
        await page.locator('#login button[type=submit]').click();
        await page.getByTestId('organizations-list').waitFor();
        expect(await page.getByTestId('organization-name').allInnerTexts()).toEqual([groupName]);
        // Reusing the link changes nothing.
        await page.goto(link);
        expect(await page.locator('h1').innerText()).toMatch(/not valid|無効/);
      });
    });
  }

  it('a proprietor creates a contract and a group, sets its storage limit, and an upload past it is refused', async () => {
    const suffix = Date.now();
    const contractName = `E2E Contract ${suffix}`;
    const groupName = `E2E Lab ${suffix}`;
    const caseNumber = `E2E-FULL-${suffix}`;
    try {
      await withAppPage(browser, baseURL, 'administration-proprietor', async (app) => {
        const { page } = app;
        await signInAs(page, 'owner', '/contracts', 'en');
        await page.getByTestId('contract-create').click();
        await page.getByTestId('contract-field-name').fill(contractName);
        await page.getByTestId('contract-field-maxOrganizations').fill('2');
        await page.getByTestId('contract-form-submit').click();
        await page.getByTestId('contract-name').getByText(contractName).waitFor();

        await page.getByTestId('nav-organizations').click();
        await page.getByTestId('organization-create').click();
        await page.getByTestId('organization-create-name').fill(groupName);
        await pickOption(page, 'organization-create-contract', contractName);
        await page.getByTestId('organization-create-limit').fill('5');
        await page.getByTestId('organization-create-submit').click();
        await page.getByTestId('organization-title').getByText(groupName).waitFor();
        await page.getByTestId('organization-storage-limit').getByText('5.0 GB').waitFor();

        // The limit goes down to nothing: any upload would pass it.
        await page.getByTestId('organization-field-storageLimitGb').fill('0');
        await page.getByTestId('organization-settings-save').click();
        await page.getByTestId('organization-storage-limit').getByText('0.0 GB').waitFor();
        await settle(page);
        await app.screenshot('administration-group-page-en');

        // Work in the new group: pick it, then add a slide to a new case.
        await page.getByTestId('nav-organizations').click();
        await page.getByTestId('organization-card').filter({ hasText: groupName }).click();
        await page.getByTestId('nav-cases').click();
        await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();
        await page.getByRole('button', { name: 'Add Images', exact: true }).click();
        const dialog = page.getByRole('dialog', { name: 'Add Images' });
        await dialog.getByLabel('Case number').fill(caseNumber);
        await dialog.getByText('New case', { exact: true }).waitFor();
        await dialog.getByTestId('dialog-file-input').setInputFiles(slidePath('CMU-1-Small-Region.svs'));
        await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
        const failed = dialog.locator('[data-testid="upload-item"][data-status="upload_failed"]');
        await failed.waitFor({ timeout: 30_000 });
        await failed.getByText(TEXTS.en.storageFull).waitFor();
        await settle(page);
        await app.screenshot('administration-upload-refused-en');

        // The group goes with its (empty) case, after a confirmation that names what will go.
        await page.keyboard.press('Escape');
        await page.getByTestId('nav-organizations').click();
        await page.getByTestId('organization-card').filter({ hasText: groupName }).waitFor();
        await page.getByRole('link', { name: `Open ${groupName}` }).click();
        await page.getByTestId('organization-delete').click();
        await page.getByTestId('organization-purge-check').getByText('1 case', { exact: true }).waitFor();
        expect(await page.getByTestId('organization-delete-confirm').isDisabled()).toBe(true);
        await page.getByTestId('organization-delete-name').fill(groupName);
        await settle(page);
        await app.screenshot('administration-delete-group-en');
        const errorsBefore = app.consoleErrors.length;
        await page.getByTestId('organization-delete-confirm').click();
        await page.waitForURL((url) => url.pathname === '/organizations');
        await page.getByTestId('organizations-list').waitFor();
        expect(await page.getByTestId('organization-card').filter({ hasText: groupName }).count()).toBe(0);
        // Nothing asks for the deleted group afterwards (its page or purge check would answer 404).
        await settle(page, 1000);
        expect(app.consoleErrors.slice(errorsBefore)).toEqual([]);
      });
    } finally {
      // Should the journey stop half-way, the group (first by name) must not become other journeys' current group.
      await deleteGroupAsSuper(groupName);
    }
  });

  it('fits the members table on a 1366 × 768 screen: Status whole, row actions in sight (ja, en)', async () => {
    await withAppPage(
      browser,
      baseURL,
      'administration-users-1366',
      async (app) => {
        const { page } = app;
        await signInAs(page, 'admin', '/users', 'ja');
        for (const language of ['ja', 'en'] as const) {
          if (language === 'en') await switchLanguage(page, 'en');
          await page.locator('[data-testid="users-table"][aria-busy="false"]').waitFor();
          // Every row's Status whole and its actions button in sight, without scrolling the table sideways.
          const fit = await sidewaysFit(page.getByTestId('users-table'), [
            '[data-testid="users-status"]',
            '[data-testid="member-actions"]',
          ]);
          expect(fit.found[0]).toBeGreaterThan(1);
          expect(fit.found[1]).toBe(fit.found[0]);
          expect(fit).toMatchObject({ scrolls: false, hidden: [0, 0] });
          await settle(page);
          await app.screenshot(`administration-users-1366-${language}`);
        }
      },
      { viewport: { width: 1366, height: 768 } },
    );
  });

  it('keeps /users from a member, and lets a user change their display name, shown in the header at once', async () => {
    await withAppPage(browser, baseURL, 'administration-member', async (app) => {
      const { page } = app;
      await signInAs(page, 'member', '/users', 'ja');
      await page.getByTestId('not-found').waitFor();
      expect(await page.getByTestId('nav-users').count()).toBe(0);
    });
    await withAppPage(browser, baseURL, 'administration-my-account', async (app) => {
      const { page } = app;
      await signInAs(page, 'staff', '/my-account', 'ja');
      await page.getByTestId('account-edit-open').click();
      await page.getByTestId('account-edit-displayName').fill('藤本 颯太 (PathoLink)');
      await app.screenshot('administration-my-account-ja');
      await page.getByTestId('account-edit-save').click();
      await page.getByTestId('user-menu-name').getByText('藤本 颯太 (PathoLink)').waitFor();
      await page.getByTestId('account-name').getByText('藤本 颯太 (PathoLink)').waitFor();
      // Back to the seeded name, so other journeys see the demo as it was.
      await page.getByTestId('account-edit-open').click();
      await page.getByTestId('account-edit-displayName').fill('Sota Fujimoto');
      await page.getByTestId('account-edit-save').click();
      await page.getByTestId('user-menu-name').getByText('Sota Fujimoto').waitFor();
      await openUserMenu(page);
      expect(await page.getByTestId('user-menu-feature-list').count()).toBe(0);
    });
  });
});
