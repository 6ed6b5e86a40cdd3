import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

const MiB = 1024 * 1024;

/**
 * A TIFF header (all the content check reads) followed by real, incompressible bytes: a random
 * block written over and over, so the file takes its full size on disk (not sparse).
 */
export async function writeSlide(file: string, size: number): Promise<void> {
  const block = randomBytes(64 * MiB);
  block.write('II', 0, 'latin1');
  block.writeUInt16LE(42, 2);
  block.writeUInt32LE(8, 4);
  await writeRepeated(file, block, size);
}

/** A new file of `size` bytes made of `block` over and over, synced to disk. */
export async function writeRepeated(file: string, block: Buffer, size: number): Promise<void> {
  const handle = await fs.open(file, 'wx');
  try {
    for (let written = 0; written < size;) {
      const { bytesWritten } = await handle.write(block, 0, Math.min(block.length, size - written), written);
      written += bytesWritten;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** `count` hard links of `file` named after one case number each (the bulk screen reads the case from the name). */
export async function bulkNames(folder: string, file: string, count: number): Promise<string[]> {
  await fs.mkdir(folder, { recursive: true });
  const stamp = Date.now();
  const names: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const name = path.join(folder, `BENCH-BULK-${stamp}-${index}.tif`);
    await fs.link(file, name);
    names.push(name);
  }
  return names;
}
