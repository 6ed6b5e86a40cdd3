import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkWebBuild, STAMP_FILE, WEB_DIST, writeWebBuildStamp } from './web-build.js';

let root: string;

async function write(relative: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await fs.writeFile(path.join(root, relative), content);
}

/** A repository with a finished build stamped with its inputs. */
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'web-build-stamp-'));
  await write('apps/web/src/main.tsx', 'render();');
  await write('apps/web/src/app.test.tsx', 'test();');
  await write('apps/web/vite.config.ts', 'export default {};');
  await write('packages/contract/src/index.ts', 'export const a = 1;');
  await write('package-lock.json', '{}');
  await write(`${WEB_DIST}/index.html`, '<html></html>');
  await writeWebBuildStamp(root, (await checkWebBuild(root)).stamp);
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

const isCurrent = async () => (await checkWebBuild(root)).current;

describe('the web build stamp', () => {
  it('skips the build when no input changed', async () => {
    expect(await isCurrent()).toBe(true);
  });

  it.each([
    ['a web source changed', 'apps/web/src/main.tsx', 'render(other);'],
    ['a web source was added', 'apps/web/src/feature.tsx', 'export {};'],
    ['the contract changed', 'packages/contract/src/index.ts', 'export const a = 2;'],
    ['the lockfile changed', 'package-lock.json', '{"lockfileVersion":3}'],
    ['the vite config changed', 'apps/web/vite.config.ts', 'export default { base: "/" };'],
  ])('builds again when %s', async (_, file, content) => {
    await write(file, content);
    expect(await isCurrent()).toBe(false);
  });

  it('builds again when a web source was removed', async () => {
    await fs.rm(path.join(root, 'apps/web/src/main.tsx'));
    expect(await isCurrent()).toBe(false);
  });

  it('builds when there is no build, or no stamp of a finished one', async () => {
    await fs.rm(path.join(root, WEB_DIST, STAMP_FILE));
    expect(await isCurrent()).toBe(false);
    await writeWebBuildStamp(root, (await checkWebBuild(root)).stamp);
    await fs.rm(path.join(root, WEB_DIST, 'index.html'));
    expect(await isCurrent()).toBe(false);
    await fs.rm(path.join(root, WEB_DIST), { recursive: true });
    expect(await isCurrent()).toBe(false);
  });

  it('does not build for a changed test file or installed packages', async () => {
    await write('apps/web/src/app.test.tsx', 'test(other);');
    await write('apps/web/node_modules/x/index.js', 'x');
    expect(await isCurrent()).toBe(true);
  });

  it('reads no file when the listing (paths, sizes, modification times) matches the stamp', async () => {
    expect(await checkWebBuild(root)).toMatchObject({ current: true, hashed: false });
  });

  it('reads the files once when they were touched but not changed, and stamps the new listing', async () => {
    const later = new Date(Date.now() + 60_000);
    await fs.utimes(path.join(root, 'apps/web/src/main.tsx'), later, later);
    expect(await checkWebBuild(root)).toMatchObject({ current: true, hashed: true });
    expect(await checkWebBuild(root)).toMatchObject({ current: true, hashed: false });
  });
});
