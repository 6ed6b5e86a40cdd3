import type { Case, Notice } from '@pathology/contract';
import fs from 'node:fs/promises';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { apiCall } from './support/case-api.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
import { signIn, type DemoRole } from './support/sign-in.ts';
import { createCase } from './support/slides.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const unreadBadge = async (page: Page) =>
  Number(await page.getByTestId('notifications-badge').getAttribute('data-unread'));

const listedTitles = (page: Page) => page.getByTestId('notice-link').allInnerTexts();

/** Opens the bell's tab of `kind` and follows its link to the full list, as a reader goes there. */
async function openFullList(page: Page, kind: 'notice' | 'mention'): Promise<void> {
  await page.getByTestId('notifications-button').click();
  await page.getByTestId(`notifications-tab-${kind}`).click();
  const list = kind === 'notice' ? '/notices' : '/mentions';
  await page.getByTestId('notifications-popover').locator(`a[href="${list}"]`).click();
  await page.waitForURL(`**${list}`);
}

/** Signs in as `role` on the screen at `start`, in `language`, and runs `steps` on a page of its own. */
async function as(
  role: DemoRole,
  language: 'en' | 'ja',
  name: string,
  start: string,
  steps: (page: Page) => Promise<void>,
) {
  await withAppPage(browser, baseURL, name, async (app) => {
    await signIn(app.page, role, start);
    await waitForShell(app.page);
    await switchLanguage(app.page, language);
    await steps(app.page);
    await settle(app.page);
    await app.screenshot(name);
    expect(app.consoleErrors).toEqual([]);
  });
}

describe('notices and mentions', () => {
  for (const language of ['en', 'ja'] as const) {
    it(`posts a notice with a picture for members; readers, drafts, the badge and mentions follow (${language})`, async () => {
      const stamp = `${language.toUpperCase()}-${Date.now()}`;
      const title = `Scanner maintenance ${stamp}`;
      const draftTitle = `Draft only ${stamp}`;
      const picture = `/tmp/notice-picture-${stamp}.png`;
      await fs.writeFile(
        picture,
        await sharp({ create: { width: 120, height: 60, channels: 3, background: '#7048e8' } })
          .png()
          .toBuffer(),
      );
      const created: Case[] = [];
      try {
        await as('super', language, `notice-post-${language}`, '/notices/posts', async (page) => {
          await page.getByTestId('notice-add').click();
          await page.getByTestId('notice-save').click();
          await page
            .getByTestId('notice-form')
            .getByText(language === 'en' ? 'Title is required' : 'タイトルは必須です')
            .waitFor();
          await page.getByTestId('notice-title').fill(title);
          await page.getByTestId('notice-overview').fill('The slide scanner is serviced on Friday morning.');
          await page.locator('.ProseMirror').click();
          await page.keyboard.type('Please finish scanning by Thursday evening.');
          const chooser = page.waitForEvent('filechooser');
          await page.getByTestId('notice-insert-picture').click();
          await (await chooser).setFiles(picture);
          await page.locator('.ProseMirror img[src^="blob:"]').waitFor();
          await page.getByTestId('notice-permission').click();
          await page.getByRole('option', { name: language === 'en' ? 'Member or higher' : 'メンバー以上' }).click();
          await page
            .getByTestId('notice-draft')
            .getByText(language === 'en' ? 'Publishing' : '公開')
            .click();
          await page.getByTestId('notice-preview-toggle').click({ force: true });
          await page.getByTestId('notice-preview').locator('img').waitFor();
          await page.getByTestId('notice-save').click();
          await page.getByTestId('notice-post').waitFor();
          await page.getByTestId('notice-body').locator('img').waitFor();
          const draft = await apiCall(page, 'POST', '/notices/posts', {
            title: draftTitle,
            overview: 'Not yet',
            body: '<p>Draft</p>',
            openAt: new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
            closeAt: null,
            permission: 'read_only',
            isDraft: true,
          });
          expect((draft.json as Notice).isDraft).toBe(true);
        });

        await as('member', language, `notice-read-${language}`, '/organizations', async (page) => {
          await expect.poll(() => unreadBadge(page)).toBeGreaterThan(0);
          const before = await unreadBadge(page);
          await openFullList(page, 'notice');
          await expect.poll(() => listedTitles(page)).toContain(title);
          expect(await listedTitles(page)).not.toContain(draftTitle);
          await page.getByTestId('notice-link').filter({ hasText: title }).click();
          await page.getByTestId('notice-body').locator('img').waitFor();
          await expect.poll(() => unreadBadge(page)).toBe(before - 1);
          // The member mentions a colleague in a case comment.
          const target = await createCase(page, `E2E-MENTION-${stamp}`, DEMO_GROUPS.central.name);
          created.push(target);
          await page.goto(`/cases/${target.id}/comments`);
          // "@" and two letters suggest members of the case's group; Enter picks one.
          const box = page.getByTestId('case-comment-input');
          await box.click();
          await page.keyboard.type('@Ak');
          await page.getByTestId('mention-suggestions').getByText('@Akira Tanaka').waitFor();
          await page.keyboard.press('Enter');
          await expect.poll(() => box.inputValue()).toBe('@Akira Tanaka ');
          await page.keyboard.type('could you review the margins?');
          expect(await box.inputValue()).toBe('@Akira Tanaka could you review the margins?');
          await page.getByTestId('case-comment-submit').click();
          await page.getByTestId('case-comment-list').getByText('could you review the margins?').waitFor();
        });

        await as('readOnly', language, `notice-hidden-${language}`, '/notices', async (page) => {
          await page.locator('[data-testid="notice-item"], [data-testid="notices-empty"]').first().waitFor();
          const titles = await listedTitles(page);
          expect(titles).not.toContain(title);
          expect(titles).not.toContain(draftTitle);
        });

        await as('admin', language, `mention-bell-${language}`, '/organizations', async (page) => {
          await page.getByTestId('notifications-button').click();
          await page.getByTestId('notifications-tab-mention').click();
          const mention = page.getByTestId('notifications-popover').getByTestId('mention-item').first();
          await mention.getByText('could you review the margins?').waitFor();
          await mention.getByTestId('mention-link').click();
          await page.waitForURL(`**/cases/${created[0]!.id}/comments`);
          await openFullList(page, 'mention');
          await page.getByTestId('mentions-page').getByText('could you review the margins?').first().waitFor();
        });
      } finally {
        await deleteCasesAsSuper(browser, baseURL, created);
      }
    });
  }

  it('renders the OWASP filter-evasion payloads without running any of them', async () => {
    await as('super', 'en', 'notice-xss', '/organizations', async (page) => {
      let ran = false;
      page.on('dialog', (dialog) => {
        ran = true;
        void dialog.dismiss();
      });
      const body = [
        '<p>Safe text</p>',
        '<script>alert(1)</script>',
        '<img src=x onerror=alert(1)>',
        '<svg/onload=alert(1)>',
        '<a href="javascript:alert(1)">click</a>',
        '<iframe src="javascript:alert(1)"></iframe>',
        '<p style="background:url(javascript:alert(1))">styled</p>',
        '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
      ].join('');
      const notice = (
        await apiCall(page, 'POST', '/notices/posts', {
          title: `XSS ${Date.now()}`,
          overview: 'payloads',
          body,
          openAt: new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
          closeAt: null,
          permission: 'read_only',
          isDraft: false,
        })
      ).json as Notice;
      await page.goto(`/notices/${notice.id}`);
      await page.getByTestId('notice-body').getByText('Safe text').waitFor();
      const link = page.getByTestId('notice-body').getByText('click');
      if ((await link.count()) > 0) await link.click();
      await page.waitForTimeout(500);
      expect(ran).toBe(false);
      const html = await page.getByTestId('notice-body').innerHTML();
      expect(html).not.toMatch(/<script|onerror|onload|javascript:|<iframe|style=/i);
    });
  });
});
