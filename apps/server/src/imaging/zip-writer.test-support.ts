import { crc32, deflateRawSync } from 'node:zlib';

/** Test-only zip writer: lets tests craft hostile archives (fake sizes, flags, names) without fixtures. */
export interface ZipEntrySpec {
  name: string;
  data?: Buffer;
  deflate?: boolean;
  /** Overrides the uncompressed size written to the headers (to fake a zip bomb). */
  claimedSize?: number;
  /** General-purpose flags; bit 0 marks encryption. */
  flags?: number;
}

export function buildZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const spec of entries) {
    const data = spec.data ?? Buffer.alloc(0);
    const stored = spec.deflate ? deflateRawSync(data) : data;
    const name = Buffer.from(spec.name, 'utf8');
    const crc = crc32(data);
    const size = spec.claimedSize ?? data.length;
    const method = spec.deflate ? 8 : 0;
    const flags = spec.flags ?? 0;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, stored);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
  }
  const centralDirectory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDirectory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDirectory, end]);
}
