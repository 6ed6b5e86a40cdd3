import type { Case } from '@pathology/contract';
import Encoding from 'encoding-japanese';
import Papa from 'papaparse';
import fs from 'node:fs/promises';
import type { Browser, Download } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { apiCall } from './support/case-api.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';
import { createCase } from './support/slides.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** A CSV as Excel saves it in Japan: Shift_JIS, CRLF line ends. */
function shiftJisCsv(lines: string[]): Buffer {
  const text = `${lines.join('\r\n')}\r\n`;
  return Buffer.from(Encoding.convert(Encoding.stringToCode(text), { to: 'SJIS', from: 'UNICODE' }));
}

const TEXTS = {
  en: {
    notFound: 'No case has this case number',
    duplicate: 'Several cases have this case number',
    run: 'Update 2 cases',
    parseFailed: 'Error while parsing the file: ',
  },
  ja: {
    notFound: 'この症例番号の症例はありません',
    duplicate: 'この症例番号の症例が複数あります',
    run: '2 件の症例を更新',
    parseFailed: 'ファイルの解析中にエラーが発生しました: ',
  },
} as const;

describe('CSV import and export', () => {
  for (const language of ['en', 'ja'] as const) {
    it(`imports a Shift_JIS file into two cases, reports the rest, and exports images (${language})`, async () => {
      const created: Case[] = [];
      try {
        const stamp = `${language.toUpperCase()}${Date.now()}`;
        // The cases come from a member of both groups; the super user imports.
        await withAppPage(browser, baseURL, `csv-cases-${language}`, async ({ page }) => {
          await signIn(page, 'member', '/organizations');
          await waitForShell(page);
          for (const [number, group] of [
            [`CSV-${stamp}-1`, DEMO_GROUPS.central.name],
            [`CSV-${stamp}-2`, DEMO_GROUPS.central.name],
            [`CSV-${stamp}-DUP`, DEMO_GROUPS.central.name],
            [`CSV-${stamp}-DUP`, DEMO_GROUPS.university.name],
          ] as const) {
            created.push(await createCase(page, number, group));
          }
        });
        await withAppPage(browser, baseURL, `csv-${language}`, async (app) => {
          const { page } = app;
          await signIn(page, 'super', '/organizations');
          await waitForShell(page);
          await switchLanguage(page, language);
          const file = `/tmp/csv-import-${stamp}.csv`;
          await fs.writeFile(
            file,
            shiftJisCsv([
              'caseNumber,diagnosis,tags,specimenType',
              `CSV-${stamp}-1,胃腺癌（高分化型）,"教育,HE",biopsy`,
              `CSV-${stamp}-2,大腸腺腫,,surgical`,
              `CSV-${stamp}-MISSING,存在しない症例,,`,
              `CSV-${stamp}-DUP,重複,,`,
            ]),
          );

          await page.goto('/import-csv');
          const chooser = page.waitForEvent('filechooser');
          await page.getByTestId('import-csv-choose').click();
          await (await chooser).setFiles(file);
          await page.locator('[data-testid="import-csv"][data-phase="previewing"]').waitFor({ timeout: 30_000 });
          const records = page.getByTestId('import-csv-record');
          expect(await records.count()).toBe(4);
          expect(await records.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-preview')))).toEqual([
            'valid',
            'valid',
            'not-valid',
            'not-valid',
          ]);
          // Why a row is not valid, as a sentence in the user's language (the code stays in the markup).
          expect(await records.nth(2).getAttribute('data-error-type')).toBe('CASE_NUMBER_NOT_FOUND');
          expect(await records.nth(3).getAttribute('data-error-type')).toBe('DUPLICATE_CASE_NUMBER');
          expect(await records.nth(2).innerText()).toContain(TEXTS[language].notFound);
          expect(await records.nth(3).innerText()).toContain(TEXTS[language].duplicate);
          expect(await page.getByTestId('import-csv-records').innerText()).not.toMatch(/[A-Z]+_[A-Z_]+/);
          expect(await page.getByTestId('import-csv-run').innerText()).toBe(TEXTS[language].run);
          expect(await records.nth(0).innerText()).toContain('胃腺癌（高分化型）');
          expect(await page.getByText('Shift_JIS', { exact: true }).count()).toBe(1);
          await settle(page);
          await app.screenshot(`csv-import-preview-${language}`);

          await page.getByTestId('import-csv-run').click();
          await page.locator('[data-testid="import-csv"][data-phase="done"]').waitFor({ timeout: 30_000 });
          expect(await records.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-status')))).toEqual([
            'updated',
            'updated',
            'checked',
            'checked',
          ]);
          await settle(page);
          await app.screenshot(`csv-import-done-${language}`);
          const first = (await apiCall(page, 'GET', `/cases/${created[0]!.id}`)).json as Case;
          expect(first).toMatchObject({
            diagnosis: '胃腺癌（高分化型）',
            tags: ['教育', 'HE'],
            specimenType: 'biopsy',
          });
          const second = (await apiCall(page, 'GET', `/cases/${created[1]!.id}`)).json as Case;
          expect(second).toMatchObject({ diagnosis: '大腸腺腫', specimenType: 'surgical' });
          await page.getByTestId('import-csv-reset').click();
          await page.locator('[data-testid="import-csv"][data-phase="idle"]').waitFor();

          // A malformed file changes nothing and says which line is wrong.
          const broken = `/tmp/csv-broken-${stamp}.csv`;
          await fs.writeFile(broken, `caseNumber,colour\nCSV-${stamp}-1,red\n`);
          const again = page.waitForEvent('filechooser');
          await page.getByTestId('import-csv-choose').click();
          await (await again).setFiles(broken);
          const problem = page.getByTestId('import-csv-problem');
          expect(await problem.innerText()).toContain('colour');
          expect(await problem.innerText()).toContain(`${TEXTS[language].parseFailed}csv-broken-${stamp}.csv`);
          await settle(page);
          await app.screenshot(`csv-import-parse-error-${language}`);

          await page.goto('/export-csv');
          const downloading = page.waitForEvent('download');
          await page.getByTestId('export-images').click();
          const download: Download = await downloading;
          expect(download.suggestedFilename()).toBe('images.csv');
          const bytes = await fs.readFile(await download.path());
          expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
          const parsed = Papa.parse<Record<string, string>>(bytes.toString('utf8').slice(1), {
            header: true,
            skipEmptyLines: true,
          });
          expect(parsed.errors).toEqual([]);
          expect(parsed.meta.fields).toContain('case_number');
          expect(parsed.data.length).toBeGreaterThan(0);
          await settle(page);
          await app.screenshot(`csv-export-${language}`);
          expect(app.consoleErrors).toEqual([]);
        });
      } finally {
        await deleteCasesAsSuper(browser, baseURL, created);
      }
    });
  }
});
