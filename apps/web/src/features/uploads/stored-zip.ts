/**
 * A zip of files as they are (method 0, "stored"), made as a Blob of [header, file, header, file, …, directory]:
 * the files' bytes are never copied into memory, the browser reads them when the upload sends that part. Only the
 * CRC-32 needs a pass over each file, in chunks. ZIP64 records are written when a size or offset needs them.
 */

const CHUNK_BYTES = 8 * 1024 * 1024;
const MAX_32 = 0xffffffff;
/** Bit 11: names are UTF-8. */
const UTF8_FLAG = 0x0800;
/** 1980-01-01, the earliest DOS date; the instances' own dates are in their headers. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (as zip wants it) of a Blob, read in chunks of 8 MB. */
export async function crc32Of(blob: Blob): Promise<number> {
  let crc = 0xffffffff;
  for (let start = 0; start < blob.size; start += CHUNK_BYTES) {
    const bytes = new Uint8Array(await blob.slice(start, start + CHUNK_BYTES).arrayBuffer());
    for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

class Bytes {
  private readonly view: DataView;
  private at = 0;
  constructor(readonly buffer: Uint8Array<ArrayBuffer>) {
    this.view = new DataView(buffer.buffer);
  }
  u16(value: number) {
    this.view.setUint16(this.at, value, true);
    this.at += 2;
    return this;
  }
  u32(value: number) {
    this.view.setUint32(this.at, value, true);
    this.at += 4;
    return this;
  }
  u64(value: number) {
    this.view.setBigUint64(this.at, BigInt(value), true);
    this.at += 8;
    return this;
  }
  bytes(value: Uint8Array) {
    this.buffer.set(value, this.at);
    this.at += value.length;
    return this;
  }
}

const record = (length: number) => new Bytes(new Uint8Array(length));

export interface ZipEntry {
  name: string;
  file: Blob;
}

/** The stored zip of `entries` as a File named `name`. */
export async function storedZip(entries: readonly ZipEntry[], name: string): Promise<File> {
  const parts: BlobPart[] = [];
  const central: Uint8Array<ArrayBuffer>[] = [];
  let offset = 0;
  for (const entry of entries) {
    const nameBytes = new TextEncoder().encode(entry.name);
    const crc = await crc32Of(entry.file);
    const size = entry.file.size;
    const zip64 = size >= MAX_32 || offset >= MAX_32;
    const local = record(30 + nameBytes.length + (zip64 ? 20 : 0))
      .u32(0x04034b50)
      .u16(zip64 ? 45 : 20)
      .u16(UTF8_FLAG)
      .u16(0)
      .u16(0)
      .u16(DOS_DATE)
      .u32(crc)
      .u32(zip64 ? MAX_32 : size)
      .u32(zip64 ? MAX_32 : size)
      .u16(nameBytes.length)
      .u16(zip64 ? 20 : 0)
      .bytes(nameBytes);
    if (zip64) local.u16(0x0001).u16(16).u64(size).u64(size);
    const header = record(46 + nameBytes.length + (zip64 ? 28 : 0))
      .u32(0x02014b50)
      .u16(zip64 ? 45 : 20)
      .u16(zip64 ? 45 : 20)
      .u16(UTF8_FLAG)
      .u16(0)
      .u16(0)
      .u16(DOS_DATE)
      .u32(crc)
      .u32(zip64 ? MAX_32 : size)
      .u32(zip64 ? MAX_32 : size)
      .u16(nameBytes.length)
      .u16(zip64 ? 28 : 0)
      .u16(0)
      .u16(0)
      .u16(0)
      .u32(0)
      .u32(zip64 ? MAX_32 : offset)
      .bytes(nameBytes);
    if (zip64) header.u16(0x0001).u16(24).u64(size).u64(size).u64(offset);
    parts.push(local.buffer, entry.file);
    central.push(header.buffer);
    offset += local.buffer.length + size;
  }
  const directorySize = central.reduce((sum, header) => sum + header.length, 0);
  const zip64 = offset >= MAX_32 || entries.length >= 0xffff;
  parts.push(...central);
  if (zip64) {
    const end64 = record(56)
      .u32(0x06064b50)
      .u64(44)
      .u16(45)
      .u16(45)
      .u32(0)
      .u32(0)
      .u64(entries.length)
      .u64(entries.length)
      .u64(directorySize)
      .u64(offset);
    const locator = record(20)
      .u32(0x07064b50)
      .u32(0)
      .u64(offset + directorySize)
      .u32(1);
    parts.push(end64.buffer, locator.buffer);
  }
  const end = record(22)
    .u32(0x06054b50)
    .u16(0)
    .u16(0)
    .u16(zip64 ? 0xffff : entries.length)
    .u16(zip64 ? 0xffff : entries.length)
    .u32(zip64 ? MAX_32 : directorySize)
    .u32(zip64 ? MAX_32 : offset)
    .u16(0);
  parts.push(end.buffer);
  return new File(parts, name, { type: 'application/zip' });
}
