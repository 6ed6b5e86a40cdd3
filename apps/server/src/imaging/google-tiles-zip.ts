import { open, type FileHandle } from 'node:fs/promises';
import type { GoogleTiles } from './google-tiles.ts';

/**
 * The tiles `vips dzsave --container zip` wrote into one zip, read where they lie. One file instead of a folder of
 * thousands: libvips writes it with less system time (each tile of a folder is a temporary file it renames), and we
 * read it through one open file and remove it at once. Only what libgsf writes there is read: one top folder,
 * entries stored uncompressed, Zip64 sizes and offsets where the zip needs them.
 */

const EOCD = 0x06054b50;
const EOCD_BYTES = 22;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_LOCATOR_BYTES = 20;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const LOCAL_HEADER_BYTES = 30;
const ZIP64_EXTRA = 0x0001;
const STORED = 0;
const MAX_COMMENT = 0xffff;
/** Read with each tile, past its name: the local extra fields (libgsf writes 29 bytes), so one read usually does. */
const LOCAL_EXTRA_GUESS = 64;

interface Entry {
  /** Where its local header starts. */
  offset: number;
  size: number;
  /** Its name's length in the central directory, which the local header repeats. */
  nameLength: number;
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** Where the central directory lies and how many entries it lists, from the end records. */
async function centralDirectory(handle: FileHandle): Promise<{ offset: number; size: number; count: number }> {
  const { size: fileSize } = await handle.stat();
  const tailStart = Math.max(0, fileSize - EOCD_BYTES - MAX_COMMENT - ZIP64_LOCATOR_BYTES);
  const tail = await readAt(handle, tailStart, fileSize - tailStart);
  let end = tail.length - EOCD_BYTES;
  while (end >= 0 && tail.readUInt32LE(end) !== EOCD) end--;
  if (end < 0) throw new Error('the tiles zip has no end of central directory');
  const locator = end - ZIP64_LOCATOR_BYTES;
  if (locator >= 0 && tail.readUInt32LE(locator) === ZIP64_LOCATOR) {
    const record = await readAt(handle, Number(tail.readBigUInt64LE(locator + 8)), 56);
    if (record.readUInt32LE(0) !== ZIP64_EOCD) throw new Error('the tiles zip has a broken Zip64 end record');
    return {
      count: Number(record.readBigUInt64LE(32)),
      size: Number(record.readBigUInt64LE(40)),
      offset: Number(record.readBigUInt64LE(48)),
    };
  }
  return { count: tail.readUInt16LE(end + 10), size: tail.readUInt32LE(end + 12), offset: tail.readUInt32LE(end + 16) };
}

/** The central directory's entries by name; sizes and offsets past 4 GiB come from the Zip64 extra field. */
function parseEntries(directory: Buffer, count: number): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  let at = 0;
  for (let index = 0; index < count; index++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_ENTRY) {
      throw new Error('the tiles zip has a broken central directory');
    }
    const method = directory.readUInt16LE(at + 10);
    let size = directory.readUInt32LE(at + 20);
    let offset = directory.readUInt32LE(at + 42);
    const uncompressed = directory.readUInt32LE(at + 24);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const name = directory.toString('utf8', at + 46, at + 46 + nameLength);
    let extra = at + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = directory.readUInt16LE(extra);
      const length = directory.readUInt16LE(extra + 2);
      if (id === ZIP64_EXTRA) {
        // Only the fields whose 32-bit value is saturated are there, in this order.
        let field = extra + 4;
        const next = () => {
          const value = Number(directory.readBigUInt64LE(field));
          field += 8;
          return value;
        };
        if (uncompressed === 0xffffffff) next();
        if (size === 0xffffffff) size = next();
        if (offset === 0xffffffff) offset = next();
      }
      extra += 4 + length;
    }
    if (method !== STORED) throw new Error(`the tiles zip compressed ${name}`);
    entries.set(name, { offset, size, nameLength });
    at = extraEnd + commentLength;
  }
  return entries;
}

/** The pyramid in the zip at `file`; its paths are those under the zip's one top folder (dzsave's name for it). */
export async function zipTiles(file: string): Promise<GoogleTiles> {
  const handle = await open(file, 'r');
  try {
    const { offset, size, count } = await centralDirectory(handle);
    const byPath = new Map<string, Entry>();
    for (const [name, entry] of parseEntries(await readAt(handle, offset, size), count)) {
      byPath.set(name.slice(name.indexOf('/') + 1), entry);
    }
    const zooms = new Set<number>();
    for (const name of byPath.keys()) {
      const zoom = /^(\d+)\//.exec(name)?.[1];
      if (zoom != null) zooms.add(Number(zoom));
    }
    return {
      zooms: () => Promise.resolve([...zooms]),
      file: (name) => readEntry(handle, name, byPath.get(name)),
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
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
