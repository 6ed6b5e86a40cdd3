import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type ConsoleMessage,
  type Page,
} from 'playwright-core';
import { screenshotsDir } from './paths.ts';

/**
 * The features Playwright's launcher disables (playwright-core's chromiumSwitches.ts). Chromium keeps only the last
 * `--disable-features`, so ours replaces Playwright's and must carry its list along; browser.test.ts fails when an
 * upgrade of Playwright adds a name that this list lacks.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium 15x's headless windows load the address bar's popup as a WebUI page (chrome://omnibox-popup.top-chrome)
 * in a renderer of its own, for every browser context a journey opens: ≈1.5 CPU seconds each that no journey looks
 * at. Puppeteer disables the same two features by default.
 */
const JOURNEY_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * Chromium's old headless shell (Debian's chromium-headless-shell, what Playwright itself runs for headless
 * Chromium) where installed: the same Blink without the browser's windows and WebUI, about a quarter less CPU per
 * journey than the full browser in its headless mode. The full browser when asked for a window (E2E_HEADED=1), when
 * the shell is missing, and for the benches, which time what a user's browser does; CHROMIUM_PATH points elsewhere
 * (e.g. a Chrome install on a developer's Mac).
 */
export function journeyBrowserPath(
  env: NodeJS.ProcessEnv = process.env,
  installed: (file: string) => boolean = (file) => existsSync(file),
  headlessShell = true,
): string {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  if (headlessShell && env.E2E_HEADED !== '1' && installed(HEADLESS_SHELL)) return HEADLESS_SHELL;
  return '/usr/bin/chromium';
}

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export function launchBrowser({ headlessShell = true } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: journeyBrowserPath(process.env, undefined, headlessShell),
    headless: process.env.E2E_HEADED !== '1',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...JOURNEY_DISABLED_FEATURES].join(',')}`,
    ],
  });
}

export interface AppPage {
  page: Page;
  /** Console errors and uncaught page errors seen so far; a journey should end with none. */
  consoleErrors: string[];
  /** What the server's Content-Security-Policy blocked, in pages, frames and workers; withAppPage fails on any. */
  cspViolations: string[];
  /**
   * Saves what the user sees (the viewport: the app shell's header and menu are fixed, so a full-page capture would
   * cut them off) to test-results/screenshots/<name>.png and returns its path.
   */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Answers the AI-use agreement and dismisses the AI warning in a context, as a user who did so earlier:
 * journeys about other things are not stopped by the dialog of groups that predict.
 */
export async function answerAiTerms(context: BrowserContext, baseURL: string): Promise<void> {
  await context.addCookies(
    ['ai_agreement', 'ai_warning_dismissed'].map((name) => ({ name, value: '1', url: baseURL })),
  );
}

/** Chromium's own words when a policy blocks something, in the console of a page, frame or worker. */
const CSP_REFUSAL = /^Refused to .*Content Security Policy/;

/**
 * Everything a Content-Security-Policy blocks in the context's pages, frames and workers: the
 * `securitypolicyviolation` events of documents and Chromium's "Refused to …" console messages.
 */
async function collectCspViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('__reportCspViolation', (_source, violation: string) => violations.push(violation));
  await context.addInitScript(`document.addEventListener('securitypolicyviolation', (event) =>
    window.__reportCspViolation(event.effectiveDirective + ' blocked ' + (event.blockedURI || 'inline') +
      ' (' + event.sourceFile + ':' + event.lineNumber + ')'));`);
  const onConsole = (message: ConsoleMessage) => {
    if (CSP_REFUSAL.test(message.text())) violations.push(message.text());
  };
  context.on('console', onConsole);
  context.on('page', (page) => page.on('worker', (worker) => worker.on('console', onConsole)));
  return violations;
}

/**
 * Opens a page in a fresh context (own storage, so language and session start clean) aimed at the app;
 * the AI terms are answered unless `freshAiTerms` (the AI journey sees the dialog itself).
 */
export async function openAppPage(
  browser: Browser,
  baseURL: string,
  options: BrowserContextOptions = {},
  freshAiTerms = false,
): Promise<AppPage> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 900 },
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    // As a user whose system asks for reduced motion (global.css): skeletons and spinners stand still instead of
    // pulsing at 60 frames a second, frames that no journey looks at and that Chromium composites in software.
    reducedMotion: 'reduce',
    ...options,
  });
  if (!freshAiTerms) await answerAiTerms(context, baseURL);
  context.setDefaultTimeout(15_000);
  const cspViolations = await collectCspViolations(context);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));

  return {
    page,
    consoleErrors,
    cspViolations,
    async screenshot(name) {
      const file = path.join(screenshotsDir, `${name}.png`);
      await fs.mkdir(screenshotsDir, { recursive: true });
      await page.screenshot({ path: file, animations: 'disabled' });
      return file;
    },
    close: () => context.close(),
  };
}

/**
 * Runs one journey in a fresh page: on failure a screenshot `FAILED-<name>.png` shows where it stopped; the page is
 * closed either way.
 */
export async function withAppPage(
  browser: Browser,
  baseURL: string,
  name: string,
  journey: (app: AppPage) => Promise<void>,
  options: BrowserContextOptions = {},
  freshAiTerms = false,
): Promise<void> {
  const app = await openAppPage(browser, baseURL, options, freshAiTerms);
  try {
    await journey(app);
    if (app.cspViolations.length > 0) throw new Error(`CSP violations:\n${app.cspViolations.join('\n')}`);
  } catch (error) {
    await app.screenshot(`FAILED-${name}`).catch(() => undefined);
    throw error;
  } finally {
    await app.close();
  }
}
