import { UnsupportedImageError } from './errors.ts';

export type TiffTagValue = number[] | string | Buffer;

/** Reads integers in a file's byte order. */
export interface ByteOrder {
  littleEndian: boolean;
  u16(data: Buffer, at: number): number;
  u32(data: Buffer, at: number): number;
  u64(data: Buffer, at: number): number;
}

// Bytes per value for each TIFF field type; unknown types are skipped, as the spec asks.
export const TYPE_SIZES: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  13: 4,
  16: 8,
  17: 8,
  18: 8,
};

/** A tag's values from its bytes: numbers, text for ASCII, bytes for UNDEFINED. */
export function decodeValues(bytes: ByteOrder, data: Buffer, type: number, count: number): TiffTagValue {
  if (type === 2) return data.toString('latin1').replace(/\0+$/, '');
  if (type === 7) return Buffer.from(data);
  const values = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    switch (type) {
      case 1:
        values[i] = data.readUInt8(i);
        break;
      case 6:
        values[i] = data.readInt8(i);
        break;
      case 3:
        values[i] = bytes.u16(data, i * 2);
        break;
      case 8:
        values[i] = bytes.littleEndian ? data.readInt16LE(i * 2) : data.readInt16BE(i * 2);
        break;
      case 4:
      case 13:
        values[i] = bytes.u32(data, i * 4);
        break;
      case 9:
        values[i] = bytes.littleEndian ? data.readInt32LE(i * 4) : data.readInt32BE(i * 4);
        break;
      case 5:
        values[i] = bytes.u32(data, i * 8) / bytes.u32(data, i * 8 + 4);
        break;
      case 10: {
        const read = (at: number) => (bytes.littleEndian ? data.readInt32LE(at) : data.readInt32BE(at));
        values[i] = read(i * 8) / read(i * 8 + 4);
        break;
      }
      case 11:
        values[i] = bytes.littleEndian ? data.readFloatLE(i * 4) : data.readFloatBE(i * 4);
        break;
      case 12:
        values[i] = bytes.littleEndian ? data.readDoubleLE(i * 8) : data.readDoubleBE(i * 8);
        break;
      case 16:
      case 18:
        values[i] = bytes.u64(data, i * 8);
        break;
      case 17:
        values[i] = Number(bytes.littleEndian ? data.readBigInt64LE(i * 8) : data.readBigInt64BE(i * 8));
        break;
      default:
        throw new UnsupportedImageError(`Invalid TIFF: unexpected field type ${type}`);
    }
  }
  return values;
}
