import { switchLanguage, waitForShell } from '../../e2e/support/shell.ts';
import { withMemberPage } from './browser-app.ts';

/** Long enough for a few GB over loopback on a slow disk. */
const UPLOAD_TIMEOUT_MS = 30 * 60_000;

export interface BrowserFigures {
  /** One file through the Add Images dialog (tus-js-client with the app's settings, a real File). */
  dialogSeconds: number;
  /** The bulk-upload screen with `bulkFiles`, when asked for. */
  bulkSeconds?: number;
}

/**
 * Uploads `slide` from headless Chromium through the web app's own code, the way a user does it: the Add Images
 * dialog for one file and, given `bulkFiles` (names starting with their case number), the bulk-upload screen.
 * The app runs as `npm start` does (embedded PostgreSQL, api and worker in one process) and serves the built web
 * app; the files reach the page as real `File`s of the disk, which the browser reads as it sends them.
 */
export async function uploadFromBrowser(slide: string, bulkFiles: string[] = []): Promise<BrowserFigures> {
  return withMemberPage({}, async (page) => {
    await waitForShell(page);
    await switchLanguage(page, 'en');
    await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();
    await page.getByRole('button', { name: 'Add Images', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Images' });
    await dialog.getByLabel('Case number').fill(`BENCH-${Date.now()}`);
    await dialog.getByText('New case', { exact: true }).waitFor();
    await dialog.getByTestId('dialog-file-input').setInputFiles(slide);
    const start = performance.now();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.locator('[data-testid="upload-item"][data-status="uploaded"]').waitFor({ timeout: UPLOAD_TIMEOUT_MS });
    const dialogSeconds = (performance.now() - start) / 1000;
    if (bulkFiles.length === 0) return { dialogSeconds };

    await page.goto('/bulk-upload');
    await page.locator('[data-testid="bulk-upload"][data-step="adding"]').waitFor();
    await page.getByTestId('bulk-file-input').setInputFiles(bulkFiles);
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.locator('[data-testid="bulk-upload"][data-step="previewing"]').waitFor();
    const bulkStart = performance.now();
    await page.getByRole('button', { name: `Upload ${bulkFiles.length} files` }).click();
    await page.locator('[data-testid="bulk-upload"][data-step="done"]').waitFor({ timeout: UPLOAD_TIMEOUT_MS });
    const bulkSeconds = (performance.now() - bulkStart) / 1000;
    const uploaded = await page.locator('[data-testid="upload-item"][data-status="uploaded"]').count();
    if (uploaded !== bulkFiles.length) throw new Error(`bulk upload: ${uploaded} of ${bulkFiles.length} uploaded`);
    return { dialogSeconds, bulkSeconds };
  });
}
