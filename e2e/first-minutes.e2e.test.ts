import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { apiCall, toast } from './support/case-api.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { switchLanguage, waitForShell } from './support/shell.ts';
import { DEMO_ROLES, signIn } from './support/sign-in.ts';

const baseURL = inject('baseURL');
let browser: Browser;
const madeCases: { id: string }[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await deleteCasesAsSuper(browser, baseURL, madeCases);
  await browser?.close();
});

async function waitForList(page: Page): Promise<void> {
  await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();
  await page.getByTestId('case-list-range').waitFor();
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the first minutes of a new user', () => {
  it.each(DEMO_ROLES)('(a) %s finds cases with slides on the first page of the default case list', async (role) => {
    await withAppPage(browser, baseURL, `first-minutes-slides-${role}`, async ({ page }) => {
      await signIn(page, role, '/cases');
      await waitForShell(page);
      await waitForList(page);
      // The demo slides convert right after the server starts: reload until they are ready.
      const ready = page.getByTestId('case-row').filter({ has: page.getByTestId('status-count-available') });
      await expect
        .poll(
          async () => {
            if ((await ready.count()) > 0) return true;
            await page.reload();
            await waitForList(page);
            return (await ready.count()) > 0;
          },
          { timeout: 90_000, interval: 2_000 },
        )
        .toBe(true);
      await ready.first().getByTestId('case-link').click();
      await page.waitForURL(/\/cases\/[0-9a-f-]{36}/);
      await page.getByTestId('case-tab-images').click();
      await page.locator('[data-testid="case-image-card"][data-status="available"]').first().waitFor();
    });
  });

  it('(b) enables "Include any tag" once two tags are typed with a comma between them', async () => {
    await withAppPage(browser, baseURL, 'first-minutes-tags', async ({ page }) => {
      await signIn(page, 'member', '/cases');
      await waitForList(page);
      await page.getByTestId('open-search').click();
      await page.getByTestId('case-search-form').waitFor();
      const any = page.getByTestId('search-tags-match').locator('input[value="contains-any"]');
      expect(await any.isDisabled()).toBe(true);
      await page.getByTestId('search-tags').click();
      await page.keyboard.type('HE,IHC');
      await expect.poll(() => any.isDisabled()).toBe(false);
    });
  });

  it('(c) starts the owner in a group where they can create cases', async () => {
    await withAppPage(browser, baseURL, 'first-minutes-group', async ({ page }) => {
      await signIn(page, 'owner', '/bulk-upload');
      await waitForShell(page);
      await page.locator('[data-testid="bulk-upload"][data-step="adding"]').waitFor();
      expect(await page.getByTestId('bulk-no-permission').count()).toBe(0);
      await page.getByTestId('nav-cases').click();
      await page.getByTestId('open-upload-dialog').waitFor();
    });
  });

  it.each([1366, 1920])('(d) shows whole group names and no wide empty status column at %i px', async (width) => {
    await withAppPage(
      browser,
      baseURL,
      `first-minutes-columns-${width}`,
      async (app) => {
        const { page } = app;
        await signIn(page, 'super', '/cases');
        await waitForList(page);
        await page.getByTestId('case-list-organization').click();
        await page.getByRole('option').first().click();
        await waitForList(page);
        const cut = await page
          .getByTestId('case-group')
          .evaluateAll((cells) =>
            cells
              .filter((cell) => cell.scrollWidth > cell.clientWidth || cell.scrollHeight > cell.clientHeight + 1)
              .map((cell) => cell.textContent),
          );
        expect(cut).toEqual([]);
        expect(await page.getByTestId('case-group').count()).toBeGreaterThan(0);
        const statusWidths = await page.getByTestId('case-image-status').evaluateAll((cells) =>
          cells.map((cell) => ({
            width: cell.getBoundingClientRect().width,
            empty: cell.textContent?.trim() === '',
          })),
        );
        expect(Math.max(...statusWidths.map((cell) => cell.width))).toBeLessThan(140);
        await app.screenshot(`first-minutes-case-list-${width}`);
      },
      { viewport: { width, height: 900 } },
    );
  });

  it('(e) shows "Upload completed" where it covers neither Transfer nor the ⋯ menu of the case', async () => {
    await withAppPage(browser, baseURL, 'first-minutes-toast', async (app) => {
      const { page } = app;
      await signIn(page, 'admin', '/cases');
      await waitForShell(page);
      await switchLanguage(page, 'en');
      const groups = (await apiCall(page, 'GET', '/organizations')).json as {
        data: { id: string; name: string; userCapabilities: { canCreateCase: boolean } }[];
      };
      const group = groups.data.find((candidate) => candidate.userCapabilities.canCreateCase)!;
      const created = await apiCall(page, 'POST', '/cases', {
        caseNumber: `E2E-TOAST-${Date.now()}`,
        ownerOrganizationId: group.id,
      });
      const caseId = (created.json as { id: string }).id;
      madeCases.push({ id: caseId });

      await page.goto(`/cases/${caseId}/images`);
      const transfer = page.getByTestId('case-transfer');
      const options = page.getByTestId('case-options');
      await transfer.waitFor();
      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c06080' } })
        .png()
        .toBuffer();
      await page
        .getByTestId('case-image-input')
        .setInputFiles({ name: 'toast.png', mimeType: 'image/png', buffer: png });
      const notification = toast(page, 'Upload completed');
      await notification.waitFor();
      const box = (await notification.boundingBox())!;
      for (const button of [transfer, options]) expect(overlaps(box, (await button.boundingBox())!)).toBe(false);
      await app.screenshot('first-minutes-upload-toast');
    });
  });
});
