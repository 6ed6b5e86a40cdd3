import { mkdtemp, open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect } from 'vitest';
import { slidePath } from '#test/testdata.ts';
import { restartLayout, type RestartLayout } from './jpeg-restart-crop.ts';
import { readTiffStructure } from './tiff-structure.ts';

/** Real slides live outside the repository and are never copied into it. */
export const slide = slidePath;

export function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `imaging-${prefix}-`));
}

/** Our output contract: BigTIFF, 512² self-contained JPEG tiles, halving pages (rounded up) down to one tile. */
export async function expectJpegPyramid(file: string, width: number, height: number): Promise<void> {
  const handle = await open(file, 'r');
  const structure = await readTiffStructure(handle).finally(() => handle.close());
  expect(structure.bigTiff).toBe(true);
  const [base] = structure.pages;
  expect(base).toMatchObject({ width, height });
  for (const page of structure.pages) {
    expect(page).toMatchObject({ tileWidth: 512, tileHeight: 512, compression: 7, jpegTables: null });
    // Grey, YCbCr, or RGB where a DICOM's Adobe-RGB frames are kept as its full-resolution tiles.
    expect([1, 2, 6]).toContain(page.photometric);
  }
  structure.pages.forEach((page, level) =>
    expect([page.width, page.height]).toEqual([Math.ceil(width / 2 ** level), Math.ceil(height / 2 ** level)]),
  );
  const last = structure.pages.at(-1);
  expect(Math.max(last?.width ?? 0, last?.height ?? 0)).toBeLessThanOrEqual(512);
  if (Math.max(width, height) > 512) expect(structure.pages.length).toBeGreaterThan(1);
}

/** A stored tile of a pyramid's base level, as it is in the file. */
export async function baseTile(file: string, index: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const [base] = (await readTiffStructure(handle)).pages;
    const tile = Buffer.alloc(base!.tileByteCounts[index]!);
    await handle.read(tile, 0, tile.length, base!.tileOffsets[index]);
    return tile;
  } finally {
    await handle.close();
  }
}

/** The restart layout of the first stored tile of a pyramid's base level. */
export async function firstTileLayout(file: string): Promise<RestartLayout | null> {
  return restartLayout(await baseTile(file, 0));
}

export async function expectThumbnail(file: string): Promise<void> {
  const metadata = await sharp(file).metadata();
  expect(metadata.format).toBe('jpeg');
  expect(Math.max(metadata.width, metadata.height)).toBeLessThanOrEqual(512);
}
