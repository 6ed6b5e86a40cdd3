import type { Page } from 'playwright-core';

/** The page's Web Storage, typed here because the e2e project compiles without the DOM library. */
interface WebStorage {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}
type Area = 'localStorage' | 'sessionStorage';
type StorageWindow = Record<Area, WebStorage>;

export function getStorageItem(page: Page, area: Area, key: string): Promise<string | null> {
  return page.evaluate(([a, k]) => (globalThis as unknown as StorageWindow)[a].getItem(k), [area, key] as const);
}

export async function setStorageItem(page: Page, area: Area, key: string, value: string): Promise<void> {
  await page.evaluate(([a, k, v]) => (globalThis as unknown as StorageWindow)[a].setItem(k, v), [
    area,
    key,
    value,
  ] as const);
}

/** Sets a localStorage item before any script of the next page loads (e.g. the language). */
export async function presetLocalStorage(page: Page, key: string, value: string): Promise<void> {
  await page.addInitScript(([k, v]) => (globalThis as unknown as StorageWindow).localStorage.setItem(k, v), [
    key,
    value,
  ] as const);
}

/** Every key of a storage area. */
export function storageKeys(page: Page, area: Area): Promise<string[]> {
  return page.evaluate((a) => {
    const storage = (globalThis as unknown as StorageWindow)[a];
    return Array.from({ length: storage.length }, (_, index) => storage.key(index) ?? '');
  }, area);
}
