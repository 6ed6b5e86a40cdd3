import { Readable } from 'node:stream';

/**
 * A small DICOM writer for the fixed set of attributes our slides export (Explicit VR Little Endian, JPEG
 * frames encapsulated). Hand-written rather than dcmjs: dcmjs builds a whole file in memory, and one level of a
 * gigapixel slide is hundreds of megabytes; here the header is built in memory and the frames stream through.
 */

export type Vr =
  | 'AE'
  | 'CS'
  | 'DA'
  | 'DS'
  | 'DT'
  | 'FD'
  | 'FL'
  | 'IS'
  | 'LO'
  | 'LT'
  | 'OB'
  | 'PN'
  | 'SH'
  | 'SQ'
  | 'ST'
  | 'TM'
  | 'UI'
  | 'UL'
  | 'US'
  | 'UT';

/** One attribute: string or number values, sequence items, or bytes (OB). No values means present but empty. */
export interface DicomAttribute {
  vr: Vr;
  values?: readonly (string | number)[];
  items?: readonly DicomDataset[];
  bytes?: Buffer;
}

/** Attributes by tag, written as 8 upper-case hex digits ("00080016"), as DICOM JSON names them. */
export type DicomDataset = Record<string, DicomAttribute>;

export const TRANSFER_SYNTAX = {
  explicitLittle: '1.2.840.10008.1.2.1',
  jpegBaseline: '1.2.840.10008.1.2.4.50',
} as const;

/** Our implementation's UID (2.25 + a fixed random 128-bit number) and name, for the file meta information. */
export const IMPLEMENTATION_CLASS_UID = '2.25.227010934451371302930516335404426451563';
export const IMPLEMENTATION_VERSION_NAME = 'PATHOLOGY_SLIDES';

const LONG_LENGTH = new Set<Vr>(['OB', 'SQ', 'UT']);
const UNDEFINED_LENGTH = 0xffffffff;
const ITEM = 0xfffee000;
const SEQUENCE_DELIMITER = 0xfffee0dd;

/** A DS value in at most 16 characters, as the standard allows. */
export function formatDecimal(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`DS value ${value} is not finite`);
  let text = String(value);
  for (let digits = 15; text.length > 16 && digits > 0; digits--) {
    text = String(Number(value.toPrecision(digits)));
  }
  return text;
}

function tagNumber(key: string): number {
  if (!/^[0-9A-F]{8}$/.test(key)) throw new Error(`bad tag ${key}`);
  return Number.parseInt(key, 16);
}

function writeTag(target: Buffer, tag: number, at: number): void {
  target.writeUInt16LE(tag >>> 16, at);
  target.writeUInt16LE(tag & 0xffff, at + 2);
}

function header(tag: number, vr: Vr, length: number): Buffer {
  if (LONG_LENGTH.has(vr)) {
    const bytes = Buffer.alloc(12);
    writeTag(bytes, tag, 0);
    bytes.write(vr, 4, 'latin1');
    bytes.writeUInt32LE(length, 8);
    return bytes;
  }
  if (length > 0xffff) throw new Error(`value of ${tag.toString(16)} is too long for ${vr}`);
  const bytes = Buffer.alloc(8);
  writeTag(bytes, tag, 0);
  bytes.write(vr, 4, 'latin1');
  bytes.writeUInt16LE(length, 6);
  return bytes;
}

/** Binary number VRs: each value's width and writer. */
const BINARY: Partial<Record<Vr, [number, (bytes: Buffer, value: number, at: number) => void]>> = {
  US: [2, (bytes, value, at) => bytes.writeUInt16LE(value, at)],
  UL: [4, (bytes, value, at) => bytes.writeUInt32LE(value, at)],
  FL: [4, (bytes, value, at) => bytes.writeFloatLE(value, at)],
  FD: [8, (bytes, value, at) => bytes.writeDoubleLE(value, at)],
};

function valueBytes(attribute: DicomAttribute): Buffer {
  const { vr } = attribute;
  const values = attribute.values ?? [];
  if (attribute.bytes != null) {
    return attribute.bytes.length % 2 === 0 ? attribute.bytes : Buffer.concat([attribute.bytes, Buffer.alloc(1)]);
  }
  const numbers = values.map(Number);
  const binary = BINARY[vr];
  if (binary != null) {
    const [width, write] = binary;
    const bytes = Buffer.alloc(width * numbers.length);
    numbers.forEach((number, index) => write(bytes, number, width * index));
    return bytes;
  }
  const text = values.map((entry) => (vr === 'DS' && typeof entry === 'number' ? formatDecimal(entry) : String(entry)));
  const bytes = Buffer.from(text.join('\\'), 'utf8');
  if (bytes.length % 2 === 0) return bytes;
  return Buffer.concat([bytes, Buffer.from(vr === 'UI' ? [0] : [0x20])]);
}

/** A data set in Explicit VR Little Endian, attributes in tag order, sequences with explicit lengths. */
export function encodeDataset(dataset: DicomDataset): Buffer {
  const parts: Buffer[] = [];
  for (const key of Object.keys(dataset).sort()) {
    const attribute = dataset[key]!;
    const tag = tagNumber(key);
    if (attribute.vr === 'SQ') {
      const items = (attribute.items ?? []).map((item) => {
        const body = encodeDataset(item);
        const head = Buffer.alloc(8);
        writeTag(head, ITEM, 0);
        head.writeUInt32LE(body.length, 4);
        return Buffer.concat([head, body]);
      });
      const body = Buffer.concat(items);
      parts.push(header(tag, 'SQ', body.length), body);
      continue;
    }
    const body = valueBytes(attribute);
    parts.push(header(tag, attribute.vr, body.length), body);
  }
  return Buffer.concat(parts);
}

/** The 128-byte preamble, "DICM" and the file meta information group of a Part 10 file. */
export function fileMetaInformation(sopClassUid: string, sopInstanceUid: string, transferSyntaxUid: string): Buffer {
  const group = encodeDataset({
    '00020001': { vr: 'OB', bytes: Buffer.from([0, 1]) },
    '00020002': { vr: 'UI', values: [sopClassUid] },
    '00020003': { vr: 'UI', values: [sopInstanceUid] },
    '00020010': { vr: 'UI', values: [transferSyntaxUid] },
    '00020012': { vr: 'UI', values: [IMPLEMENTATION_CLASS_UID] },
    '00020013': { vr: 'SH', values: [IMPLEMENTATION_VERSION_NAME] },
  });
  const length = encodeDataset({ '00020000': { vr: 'UL', values: [group.length] } });
  return Buffer.concat([Buffer.alloc(128), Buffer.from('DICM', 'latin1'), length, group]);
}

function item(length: number): Buffer {
  const bytes = Buffer.alloc(8);
  writeTag(bytes, ITEM, 0);
  bytes.writeUInt32LE(length, 4);
  return bytes;
}

/** Frames are padded to an even length inside their items. */
function paddedLength(length: number): number {
  return length + (length % 2);
}

/**
 * The encapsulated Pixel Data's opening: its header and the Basic Offset Table. The table is filled when every
 * frame's length is known beforehand and the offsets fit in 32 bits (a level under 4 GiB), empty otherwise.
 */
export function pixelDataOpening(frameLengths: readonly number[] | null): Buffer {
  const head = header(0x7fe00010, 'OB', 0);
  head.writeUInt32LE(UNDEFINED_LENGTH, 8);
  let table = Buffer.alloc(0);
  if (frameLengths != null) {
    const offsets = Buffer.alloc(4 * frameLengths.length);
    let offset = 0;
    frameLengths.forEach((length, index) => {
      if (offset > 0xffffffff) return;
      offsets.writeUInt32LE(offset, 4 * index);
      offset += 8 + paddedLength(length);
    });
    if (offset - 8 - paddedLength(frameLengths.at(-1) ?? 0) <= 0xffffffff) table = offsets;
  }
  return Buffer.concat([head, item(table.length), table]);
}

/** One frame as a fragment item of the encapsulated Pixel Data. */
export function frameFragment(frame: Buffer): Buffer[] {
  const parts = [item(paddedLength(frame.length)), frame];
  if (frame.length % 2 === 1) parts.push(Buffer.alloc(1));
  return parts;
}

export function pixelDataClosing(): Buffer {
  const bytes = Buffer.alloc(8);
  writeTag(bytes, SEQUENCE_DELIMITER, 0);
  return bytes;
}

/** Where a file's frames come from: read one at a time, in order; lengths when known beforehand. */
export interface FrameSource {
  count: number;
  lengths: readonly number[] | null;
  read(index: number): Promise<Buffer>;
}

/** The byte count of a Part 10 file whose frame lengths are known: lets a zip or a reply declare it beforehand. */
export function part10Size(head: Buffer, frameLengths: readonly number[]): number {
  const frames = frameLengths.reduce((sum, length) => sum + 8 + paddedLength(length), 0);
  return head.length + pixelDataOpening(frameLengths).length + frames + 8;
}

/**
 * A Part 10 file with encapsulated frames, streamed: the head (meta information and data set) first, then each
 * frame as it is read, so a level never sits in memory whole.
 */
export function part10Stream(head: Buffer, frames: FrameSource): Readable {
  async function* bytes() {
    yield head;
    yield pixelDataOpening(frames.lengths);
    for (let index = 0; index < frames.count; index++) {
      const frame = await frames.read(index);
      if (frames.lengths != null && frames.lengths[index] !== frame.length) {
        throw new Error(`frame ${index} is ${frame.length} bytes, ${frames.lengths[index]} were announced`);
      }
      yield* frameFragment(frame);
    }
    yield pixelDataClosing();
  }
  return Readable.from(bytes(), { objectMode: false });
}

/** The head of a Part 10 file: meta information and the data set up to (not including) Pixel Data. */
export function part10Head(dataset: DicomDataset, transferSyntaxUid: string): Buffer {
  const sopClass = dataset['00080016']?.values?.[0];
  const sopInstance = dataset['00080018']?.values?.[0];
  if (typeof sopClass !== 'string' || typeof sopInstance !== 'string') throw new Error('data set lacks its SOP UIDs');
  return Buffer.concat([fileMetaInformation(sopClass, sopInstance, transferSyntaxUid), encodeDataset(dataset)]);
}
