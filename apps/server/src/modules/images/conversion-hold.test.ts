import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holdUntilReleased } from './conversion-hold.ts';

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await fs.rm(folder, { recursive: true, force: true });
});

async function holdFolder(): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-hold-'));
  folders.push(folder);
  return folder;
}

describe('a conversion held by CONVERT_HOLD', () => {
  it('waits until the file named after its image appears, and not for another image’s', async () => {
    const folder = await holdFolder();
    let released = false;
    const held = holdUntilReleased(folder, 'image-a', new AbortController().signal).then(() => (released = true));
    await fs.writeFile(path.join(folder, 'image-b'), '');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(released).toBe(false);
    await fs.writeFile(path.join(folder, 'image-a'), '');
    await held;
    expect(released).toBe(true);
  });

  it('stops waiting with an abort when the image is deleted', async () => {
    const folder = await holdFolder();
    const deletion = new AbortController();
    const held = holdUntilReleased(folder, 'image-a', deletion.signal);
    setTimeout(() => deletion.abort(), 200);
    await expect(held).rejects.toThrow();
  });
});
