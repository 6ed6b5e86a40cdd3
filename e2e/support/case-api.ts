import type { CaseSearchRequest, CaseSearchResponse } from '@pathology/contract';
import type { Page } from 'playwright-core';
import { accessToken } from './sign-in.ts';

/** Calls the API with the page's own session, for a journey to set up or check what the screen cannot show. */
export async function apiCall(
  page: Page,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const response = await page.request.fetch(`/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${await accessToken(page)}` },
    ...(body === undefined ? {} : { data: body }),
  });
  const text = await response.text();
  return { status: response.status(), json: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

export async function searchCases(page: Page, request: CaseSearchRequest): Promise<CaseSearchResponse> {
  const { status, json } = await apiCall(page, 'POST', '/cases/search', request);
  if (status !== 200) throw new Error(`case search answered ${status}`);
  return json as CaseSearchResponse;
}

/** The toast that shows `text` (Mantine notifications). */
export function toast(page: Page, text: string) {
  return page.locator('.mantine-Notification-root').filter({ hasText: text }).first();
}

/** Picks an option of a Mantine Select (or the organ picker) whose input has this test id. */
export async function pickOption(page: Page, testId: string, option: string, search?: string): Promise<void> {
  const input = page.getByTestId(testId);
  await input.click();
  if (search !== undefined) await input.fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Closes the toasts on screen (each animates out), so a screenshot shows the page under them. */
export async function dismissToasts(page: Page): Promise<void> {
  const close = page.locator('.mantine-Notification-root .mantine-Notification-closeButton');
  for (let attempt = 0; attempt < 20 && (await close.count()) > 0; attempt += 1) {
    await close
      .first()
      .click({ force: true, timeout: 1_000 })
      .catch(() => undefined);
    await page.waitForTimeout(200);
  }
  await page.waitForTimeout(250);
}
