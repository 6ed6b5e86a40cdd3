import type { Browser } from 'playwright-core';
import { openAppPage } from './browser.ts';
import { apiCall, searchCases } from './case-api.ts';
import { signIn } from './sign-in.ts';

/**
 * Deletes the cases a journey made (with their images, attachments and comments) as the super user, who may delete
 * in every group (a member may not), so the seeded data other journeys count stays as it was. Best effort: a cleanup
 * problem is reported but must not hide the journey's own result.
 */
export async function deleteCasesAsSuper(
  browser: Browser,
  baseURL: string,
  cases: readonly { caseNumber?: string; id?: string }[],
): Promise<void> {
  if (cases.length === 0) return;
  const app = await openAppPage(browser, baseURL);
  try {
    await signIn(app.page, 'super', '/organizations');
    for (const { caseNumber, id } of cases) {
      let caseId = id;
      if (caseId === undefined && caseNumber !== undefined) {
        const { data } = await searchCases(app.page, {
          query: [{ field: 'caseNumber', operator: 'is', value: caseNumber }],
          order: { field: 'caseNumber', direction: 'asc' },
          page: 1,
          limit: 10,
        });
        caseId = data.find((item) => item.caseNumber === caseNumber)?.id;
      }
      if (caseId === undefined) continue;
      const { status } = await apiCall(app.page, 'DELETE', `/cases/${caseId}?recursive=true`);
      if (status !== 204 && status !== 200 && status !== 404) {
        console.warn(`e2e cleanup: deleting case ${caseNumber ?? caseId} answered ${status}`);
      }
    }
  } catch (error) {
    console.warn(`e2e cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await app.close();
  }
}
