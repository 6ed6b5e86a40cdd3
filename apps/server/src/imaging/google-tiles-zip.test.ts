import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { folderTiles, GOOGLE_LAYOUT_ARGS, googleTilesSize, googleTilesToTiff } from './google-tiles.ts';
import { zipTileCounter, zipTiles } from './google-tiles-zip.ts';
import { TILE_SUFFIX } from './pyramid.ts';
import { runTool } from './run-tool.ts';
import { sharp } from './sharp-setup.ts';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tiles-zip-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function dzsave(source: string, output: string, container: string[]): Promise<void> {
  const args = ['dzsave', source, output, ...container, ...GOOGLE_LAYOUT_ARGS, '--tile-size', '512', '--suffix'];
  const result = await runTool('vips', [...args, TILE_SUFFIX], { timeoutMs: 60_000 });
  expect(result.exitCode, result.stderr).toBe(0);
}

async function writeZip(file: string, entries: Record<string, Buffer>, { compress = false, forceZip64Format = false }) {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of Object.entries(entries)) zip.addBuffer(bytes, name, { compress, forceZip64Format });
  zip.end({ forceZip64Format, comment: '' });
  await pipeline(zip.outputStream, createWriteStream(file));
}

describe('zipTiles', () => {
  it('packs the zip `vips dzsave --container zip` writes into the very TIFF its folder output packs into', async () => {
    const [width, height] = [1301, 1029];
    const source = path.join(dir, 'noise.png');
    const noise = { type: 'gaussian', mean: 128, sigma: 40 } as const;
    await sharp({ create: { width, height, channels: 3, background: '#808080', noise } })
      .png()
      .toFile(source);
    await dzsave(source, path.join(dir, 'folder'), []);
    await dzsave(source, path.join(dir, 'tiles.zip'), ['--container', 'zip']);
    const zipped = await zipTiles(path.join(dir, 'tiles.zip'));
    try {
      expect(await googleTilesSize(zipped)).toEqual({ width, height });
      expect((await zipped.zooms()).sort()).toEqual([0, 1, 2]);
      await googleTilesToTiff(zipped, { width, height }, 512, path.join(dir, 'from-zip.tif'));
    } finally {
      await zipped.close();
    }
    await googleTilesToTiff(
      folderTiles(path.join(dir, 'folder')),
      { width, height },
      512,
      path.join(dir, 'folder.tif'),
    );
    const fromZip = await fs.readFile(path.join(dir, 'from-zip.tif'));
    expect(fromZip.equals(await fs.readFile(path.join(dir, 'folder.tif')))).toBe(true);
  });

  it('reads sizes and offsets from Zip64 records', async () => {
    const file = path.join(dir, 'zip64.zip');
    const tile = Buffer.from('not a real tile, but its bytes');
    await writeZip(
      file,
      { 'tiles/vips-properties.xml': Buffer.from('x'), 'tiles/0/0/0.jpg': tile },
      {
        forceZip64Format: true,
      },
    );
    const tiles = await zipTiles(file);
    try {
      expect(await tiles.zooms()).toEqual([0]);
      expect((await tiles.file('0/0/0.jpg')).equals(tile)).toBe(true);
      await expect(tiles.file('0/0/1.jpg')).rejects.toThrow(/no 0\/0\/1\.jpg/);
    } finally {
      await tiles.close();
    }
  });

  it('refuses compressed entries and files that are no zip', async () => {
    const file = path.join(dir, 'deflated.zip');
    await writeZip(file, { 'tiles/0/0/0.jpg': Buffer.alloc(1000) }, { compress: true });
    await expect(zipTiles(file)).rejects.toThrow(/compressed/);
    const notZip = path.join(dir, 'not.zip');
    await fs.writeFile(notZip, Buffer.alloc(100));
    await expect(zipTiles(notZip)).rejects.toThrow(/end of central directory/i);
  });

  it('counts the tiles per zoom of a zip still being written, reading only what was added', async () => {
    const source = path.join(dir, 'counted.png');
    await sharp({ create: { width: 1800, height: 1100, channels: 3, background: '#336699' } })
      .png()
      .toFile(source);
    const whole = path.join(dir, 'counted.zip');
    await dzsave(source, whole, ['--container', 'zip']);
    const bytes = await fs.readFile(whole);
    const growing = path.join(dir, 'growing.zip');
    const count = zipTileCounter(growing);
    expect(await count()).toEqual(new Map());
    // Cut inside the fifth tile's local header, then written on to its end as dzsave would.
    let header = -1;
    for (let i = 0; i < 5; i++) header = bytes.indexOf(Buffer.from('PK\x03\x04', 'latin1'), header + 1);
    await fs.writeFile(growing, bytes.subarray(0, header + 20));
    const early = new Map(await count());
    await fs.appendFile(growing, bytes.subarray(header + 20));
    const counted = await count();
    expect([...early.values()].reduce((sum, n) => sum + n, 0)).toBe(4);
    // 1800 × 1100: 4 × 3 tiles, then 2 × 2 (900 × 550), 1 × 1 (450 × 275).
    expect(counted).toEqual(
      new Map([
        [2, 12],
        [1, 4],
        [0, 1],
      ]),
    );
  });
});
