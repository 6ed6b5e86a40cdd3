import type { OrganizationList } from '@pathology/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { settle, switchLanguage } from './support/shell.ts';
import { accessToken, signIn } from './support/sign-in.ts';
import { getStorageItem } from './support/storage.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function organizations(page: Page): Promise<OrganizationList> {
  const response = await page.request.get('/api/v1/organizations', {
    headers: { Authorization: `Bearer ${await accessToken(page)}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as OrganizationList;
}

const picker = (page: Page) => page.getByTestId('organization-picker');
const currentCardName = (page: Page) =>
  page.locator('[data-testid="organization-card"][aria-pressed="true"] [data-testid="organization-name"]').innerText();

describe('current group: listed groups, a searchable picker above 5 groups, kept in localStorage', () => {
  it('lets the super user search all groups, shows the badges and remembers the choice', async () => {
    await withAppPage(browser, baseURL, 'current-group-super', async (app) => {
      const { page } = app;
      await signIn(page, 'super');
      await page.getByTestId('organizations-list').waitFor();
      const { data, total } = await organizations(page);
      expect(total).toBeGreaterThan(5);

      const cards = page.getByTestId('organization-card');
      expect(await cards.count()).toBe(data.length);
      expect(await page.getByTestId('organization-name').allInnerTexts()).toEqual(data.map((o) => o.name));
      expect(await page.getByTestId('organization-ai-badge').count()).toBe(
        data.filter((o) => o.predictionEnabled).length,
      );
      const provider = data.find((o) => o.isProvider);
      expect(provider).toBeDefined();
      const providerCard = cards.filter({ has: page.getByTestId('organization-provider-badge') });
      expect(await providerCard.getByTestId('organization-name').innerText()).toBe(provider?.name);

      // Nothing stored yet: the first group by name is current.
      const firstByName = [...data].sort((a, b) => a.name.localeCompare(b.name))[0];
      expect(await currentCardName(page)).toBe(firstByName?.name);
      expect(await picker(page).inputValue()).toBe(firstByName?.name);
      await settle(page);
      await app.screenshot('groups-super-ja');

      // More than 5 groups: the picker searches.
      const target = data.find((o) => o.id !== firstByName?.id && !o.isProvider);
      if (!target) throw new Error('no second group');
      await picker(page).click();
      await picker(page).fill(target.name.slice(0, 12));
      const options = page.getByRole('option');
      await options.first().waitFor();
      expect(await options.allInnerTexts()).toEqual([target.name]);
      await settle(page);
      await app.screenshot('group-picker-search-ja');
      await options.first().click();
      await expect.poll(() => currentCardName(page)).toBe(target.name);
      expect(await getStorageItem(page, 'localStorage', 'currentOrganizationId')).toBe(JSON.stringify(target.id));

      // Remembered for the next visit; choosing a card works as well.
      await page.reload();
      await page.getByTestId('organizations-list').waitFor();
      expect(await picker(page).inputValue()).toBe(target.name);
      const other = data.find((o) => o.id !== target.id && o.isProvider) ?? data[0];
      await cards.filter({ hasText: other?.name ?? '' }).click();
      await expect.poll(() => picker(page).inputValue()).toBe(other?.name);

      await switchLanguage(page, 'en');
      await page.getByTestId('organizations-total').getByText(`Groups you can see: ${total}`).waitFor();
      await settle(page);
      await app.screenshot('groups-super-en');
      expect(app.consoleErrors).toEqual([]);
    });
  });

  it('gives a plain picker to a user with 5 groups or fewer', async () => {
    await withAppPage(browser, baseURL, 'current-group-admin', async (app) => {
      const { page } = app;
      await signIn(page, 'admin');
      await page.getByTestId('organizations-list').waitFor();
      const { data } = await organizations(page);
      expect(data.length).toBeLessThanOrEqual(5);
      expect(await picker(page).getAttribute('readonly')).not.toBeNull();
      await picker(page).click();
      expect(await page.getByRole('option').allInnerTexts()).toEqual(data.map((o) => o.name));
      await settle(page);
      await app.screenshot('group-picker-plain-ja');
      await page.keyboard.press('Escape');
      await switchLanguage(page, 'en');
      await picker(page).click();
      await page.getByRole('option').first().waitFor();
      expect(await page.getByText('Current group', { exact: true }).count()).toBe(1);
      await settle(page);
      await app.screenshot('group-picker-plain-en');
      await page.keyboard.press('Escape');
      expect(app.consoleErrors).toEqual([]);
    });
  });
});
