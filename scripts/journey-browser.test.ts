import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journeyBrowserPath, launchBrowser } from '../e2e/support/browser.ts';

const switchValues = (args: string[], name: string) =>
  args.filter((arg) => arg.startsWith(`--${name}=`)).map((arg) => arg.slice(name.length + 3).split(','));

describe('the journeys browser', () => {
  const saved = process.env.CHROMIUM_PATH;
  afterEach(() => {
    if (saved === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = saved;
  });

  it("launches without the omnibox WebUI and keeps every feature Playwright's launcher disables", async () => {
    // A stand-in Chromium that writes down the command line Playwright gives it and exits.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'journey-browser-'));
    const argsFile = path.join(dir, 'args');
    const fake = path.join(dir, 'chromium');
    await fs.writeFile(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\nexit 1\n`, { mode: 0o755 });
    process.env.CHROMIUM_PATH = fake;
    try {
      await expect(launchBrowser()).rejects.toThrow();
      const args = (await fs.readFile(argsFile, 'utf8')).split('\n');
      const disabled = switchValues(args, 'disable-features');
      // Chromium keeps only the last --disable-features: it must hold every name of the earlier ones.
      const effective = disabled.at(-1) ?? [];
      expect(effective).toEqual(expect.arrayContaining(['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']));
      expect(effective).toEqual(expect.arrayContaining(disabled.flat()));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('runs the headless shell where installed, the full browser for a window, for the benches or without it, CHROMIUM_PATH first', () => {
    const everything = () => true;
    expect(journeyBrowserPath({}, everything)).toBe('/usr/bin/chromium-headless-shell');
    expect(journeyBrowserPath({}, () => false)).toBe('/usr/bin/chromium');
    expect(journeyBrowserPath({ E2E_HEADED: '1' }, everything)).toBe('/usr/bin/chromium');
    expect(journeyBrowserPath({}, everything, false)).toBe('/usr/bin/chromium');
    expect(journeyBrowserPath({ CHROMIUM_PATH: '/opt/chrome' }, everything)).toBe('/opt/chrome');
  });
});
