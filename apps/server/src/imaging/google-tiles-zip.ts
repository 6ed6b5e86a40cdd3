import { open, type FileHandle } from 'node:fs/promises';
import type { Entry as ZipEntry } from 'yauzl';
import type { GoogleTiles } from './google-tiles.ts';
import { openZip } from './vsi-zip.ts';

/**
 * The tiles `vips dzsave --container zip` wrote into one zip, read where they lie. One file instead of a folder of
 * thousands: libvips writes it with less system time (each tile of a folder is a temporary file it renames), and we
 * read it through one open file and remove it at once. yauzl reads its central directory (Zip64 where the zip needs
 * it); each tile is then one positioned read, which a stream per tile would cost more than. Only what libgsf writes
 * there is read: one top folder, entries stored uncompressed.
 */

const LOCAL_HEADER = 0x04034b50;
const LOCAL_HEADER_BYTES = 30;
const STORED = 0;
/** Read with each tile, past its name: the local extra fields (libgsf writes 29 bytes), so one read usually does. */
const LOCAL_EXTRA_GUESS = 64;

interface Entry {
  /** Where its local header starts. */
  offset: number;
  size: number;
  /** Its name's length, which the local header repeats. */
  nameLength: number;
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** The central directory's entries by path under the zip's top folder, as yauzl reads them (Zip64 included). */
async function listEntries(file: string): Promise<Map<string, Entry>> {
  const zip = await openZip(file);
  try {
    return await new Promise((resolve, reject) => {
      const byPath = new Map<string, Entry>();
      zip.on('error', reject);
      zip.on('end', () => resolve(byPath));
      zip.on('entry', (entry: ZipEntry) => {
        const name = entry.fileName;
        if (entry.compressionMethod !== STORED) return reject(new Error(`the tiles zip compressed ${name}`));
        byPath.set(name.slice(name.indexOf('/') + 1), {
          offset: entry.relativeOffsetOfLocalHeader,
          size: entry.compressedSize,
          nameLength: Buffer.byteLength(name),
        });
        zip.readEntry();
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/** The pyramid in the zip at `file`; its paths are those under the zip's one top folder (dzsave's name for it). */
export async function zipTiles(file: string): Promise<GoogleTiles> {
  const byPath = await listEntries(file);
  const zooms = new Set<number>();
  for (const name of byPath.keys()) {
    const zoom = /^(\d+)\//.exec(name)?.[1];
    if (zoom != null) zooms.add(Number(zoom));
  }
  const handle = await open(file, 'r');
  return {
    zooms: () => Promise.resolve([...zooms]),
    file: (name) => readEntry(handle, name, byPath.get(name)),
    close: () => handle.close(),
  };
}

async function readEntry(handle: FileHandle, name: string, entry: Entry | undefined): Promise<Buffer> {
  if (entry == null) throw new Error(`the tiles zip has no ${name}`);
  let bytes = await readAt(
    handle,
    entry.offset,
    LOCAL_HEADER_BYTES + entry.nameLength + LOCAL_EXTRA_GUESS + entry.size,
  );
  if (bytes.length < LOCAL_HEADER_BYTES || bytes.readUInt32LE(0) !== LOCAL_HEADER) {
    throw new Error(`the tiles zip has a broken local header for ${name}`);
  }
  const start = LOCAL_HEADER_BYTES + bytes.readUInt16LE(26) + bytes.readUInt16LE(28);
  if (start + entry.size > bytes.length) bytes = await readAt(handle, entry.offset, start + entry.size);
  if (start + entry.size > bytes.length) throw new Error(`the tiles zip ends inside ${name}`);
  return bytes.subarray(start, start + entry.size);
}

/** Read at a time while counting: the bytes dzsave added to the zip since the last count, a few seconds' worth. */
const COUNT_CHUNK = 4 * 1024 * 1024;
const LOCAL_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const TILE_NAME = /^[^/]+\/(\d+)\/\d+\/\d+\.jpg$/;

/**
 * Counts the tiles per zoom folder in a zip dzsave is still writing, for its progress: each call reads only what was
 * added since the last, finding the tiles' local headers (libgsf writes their sizes after the data, so the headers
 * cannot be walked from one to the next; a tile name after the signature tells a header from JPEG data).
 */
export function zipTileCounter(file: string): () => Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  let scanned = 0;
  return async () => {
    const handle = await open(file, 'r').catch(() => null);
    if (handle == null) return counts;
    try {
      const { size } = await handle.stat();
      while (scanned < size) {
        const chunk = await readAt(handle, scanned, Math.min(COUNT_CHUNK, size - scanned));
        // A signature cut by the chunk's end is looked for again with the next chunk.
        let resume = Math.max(0, chunk.length - LOCAL_SIGNATURE.length + 1);
        for (let at = chunk.indexOf(LOCAL_SIGNATURE); at >= 0; at = chunk.indexOf(LOCAL_SIGNATURE, at + 1)) {
          if (at + LOCAL_HEADER_BYTES > chunk.length) {
            resume = at;
            break;
          }
          const nameEnd = at + LOCAL_HEADER_BYTES + chunk.readUInt16LE(at + 26);
          // A header not yet written whole (or cut by the chunk) is read again from its start.
          if (nameEnd > chunk.length) {
            resume = at;
            break;
          }
          const zoom = TILE_NAME.exec(chunk.toString('utf8', at + LOCAL_HEADER_BYTES, nameEnd))?.[1];
          if (zoom != null) counts.set(Number(zoom), (counts.get(Number(zoom)) ?? 0) + 1);
          resume = Math.max(resume, nameEnd);
        }
        scanned += resume;
        if (resume === 0 || chunk.length < COUNT_CHUNK) break;
      }
      return counts;
    } finally {
      await handle.close();
    }
  };
}
