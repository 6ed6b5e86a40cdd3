import { open } from 'node:fs/promises';
import type { DataSet } from 'dicom-parser';
import { dicomParser } from '../on-first-use.ts';
import { UnsupportedImageError } from './errors.ts';

export const WSI_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.77.1.6';
const PIXEL_DATA = 'x7fe00010';
const FIRST_READ = 64 * 1024;
/** A header (with its per-frame groups) beyond this is not one a scanner writes. */
const MAX_HEADER_BYTES = 256 * 1024 * 1024;
const ITEM = 0xe000fffe;
const SEQUENCE_END = 0xe0ddfffe;

const SOP_CLASS_NAMES: Record<string, string> = {
  '1.2.840.10008.5.1.4.1.1.2': 'CT Image Storage',
  '1.2.840.10008.5.1.4.1.1.4': 'MR Image Storage',
  '1.2.840.10008.5.1.4.1.1.7': 'Secondary Capture Image Storage',
  '1.2.840.10008.5.1.4.1.1.1.1': 'Digital X-Ray Image Storage',
  '1.2.840.10008.5.1.4.1.1.6.1': 'Ultrasound Image Storage',
};

/** Transfer syntaxes whose frames we decode; deflated and big-endian datasets are refused. */
export const TRANSFER_SYNTAXES = {
  '1.2.840.10008.1.2': 'native',
  '1.2.840.10008.1.2.1': 'native',
  '1.2.840.10008.1.2.4.50': 'jpeg',
  '1.2.840.10008.1.2.4.51': 'jpeg',
  '1.2.840.10008.1.2.4.90': 'jpeg2000',
  '1.2.840.10008.1.2.4.91': 'jpeg2000',
} as const;
export type FrameCoding = (typeof TRANSFER_SYNTAXES)[keyof typeof TRANSFER_SYNTAXES];

/** The byte ranges of one frame in its file: one fragment as a rule, several when an encoder split it. */
export type DicomFrame = Array<{ offset: number; length: number }>;

export interface DicomInstance {
  file: string;
  /** The name the user knows it by (the zip entry or the upload), for messages. */
  name: string;
  seriesUid: string;
  /** VOLUME, LABEL, OVERVIEW or THUMBNAIL (value 3 of ImageType); VOLUME when the file leaves it out. */
  flavour: string;
  coding: FrameCoding;
  photometric: string;
  samplesPerPixel: number;
  bitsAllocated: number;
  planarConfiguration: number;
  /** Size of each frame. */
  rows: number;
  columns: number;
  /** Size of the whole level the frames tile. */
  totalColumns: number;
  totalRows: number;
  numberOfFrames: number;
  organization: string | null;
  concatenation: { uid: string; number: number; frameOffset: number } | null;
  /** Top-left pixel (0-based) of each frame from its PlanePositionSlide; null when the frames are TILED_FULL. */
  positions: Array<{ x: number; y: number }> | null;
  /** Millimetres between pixel centres: [between rows, between columns]. */
  pixelSpacingMm: [number, number] | null;
  objectivePower: number | null;
  manufacturer: string | null;
  model: string | null;
  acquired: Date | null;
  frames: DicomFrame[];
}

function fail(name: string, reason: string): never {
  throw new UnsupportedImageError(`DICOM ${name}: ${reason}`);
}

/** Whether bytes 128–131 are the DICM marker of a DICOM Part 10 file. */
export function isDicomHead(head: Buffer): boolean {
  return head.length >= 132 && head.toString('latin1', 128, 132) === 'DICM';
}

/** What the reading needs of a file: reads at a position, from the instance's first byte. */
interface ReadsAt {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

/** Where an instance lies inside a larger file (a zip entry stored as it is): its first byte and its length. */
export interface InstanceSpan {
  start: number;
  size: number;
}

/**
 * Reads one instance's header and the places of its frames, never its pixels: the file's start is
 * read in growing pieces until the Pixel Data element's header, then the fragment headers one by one.
 * With `span`, the instance is the part of `file` it names, and its frames' offsets are in `file`.
 */
export async function readDicomInstance(file: string, name: string, span?: InstanceSpan): Promise<DicomInstance> {
  const handle = await open(file, 'r');
  try {
    const start = span?.start ?? 0;
    const size = span?.size ?? (await handle.stat()).size;
    const window: ReadsAt = {
      read: (buffer, offset, length, position) => handle.read(buffer, offset, length, start + position),
    };
    const { dataSet, pixelData } = await readHeader(window, size, name);
    const instance = await describe(window, size, file, name, dataSet, pixelData);
    if (start === 0) return instance;
    const frames = instance.frames.map((frame) => frame.map((part) => ({ ...part, offset: part.offset + start })));
    return { ...instance, frames };
  } finally {
    await handle.close();
  }
}

async function readHeader(
  handle: ReadsAt,
  size: number,
  name: string,
): Promise<{ dataSet: DataSet; pixelData: { dataOffset: number; length: number } }> {
  for (let want = Math.min(FIRST_READ, size); ; want = Math.min(want * 4, size)) {
    const prefix = Buffer.alloc(want);
    const { bytesRead } = await handle.read(prefix, 0, want, 0);
    const bytes = new Uint8Array(prefix.buffer, prefix.byteOffset, bytesRead);
    if (!isDicomHead(prefix)) fail(name, 'not a DICOM file (no DICM marker at byte 128)');
    let dataSet: DataSet | null = null;
    let parseError: unknown = null;
    try {
      dataSet = dicomParser().parseDicom(bytes, { untilTag: PIXEL_DATA });
    } catch (error) {
      parseError = error;
    }
    const element = dataSet?.elements[PIXEL_DATA];
    if (dataSet && element) return { dataSet, pixelData: { dataOffset: element.dataOffset, length: element.length } };
    if (want >= size) {
      const reason = parseError ? parserMessage(parseError) : 'no pixel data';
      fail(name, `the file is truncated or damaged: it ends before its pixel data (${reason})`);
    }
    if (want >= MAX_HEADER_BYTES) fail(name, `header larger than ${MAX_HEADER_BYTES / 1024 ** 2} MB`);
  }
}

function parserMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error != null && 'exception' in error) return parserMessage(error.exception);
  return String(error);
}

function text(dataSet: DataSet, tag: string): string | null {
  const value = dataSet.string(tag)?.trim();
  return value ? value : null;
}

function number(dataSet: DataSet, tag: string, read: 'uint16' | 'uint32' | 'int32'): number | null {
  if (!dataSet.elements[tag] || dataSet.elements[tag].length === 0) return null;
  return dataSet[read](tag) ?? null;
}

function decimal(dataSet: DataSet | undefined, tag: string, index = 0): number | null {
  const value = dataSet?.string(tag, index);
  const parsed = value === undefined ? NaN : Number(value.trim());
  return Number.isFinite(parsed) ? parsed : null;
}

function firstItem(dataSet: DataSet | undefined, tag: string): DataSet | undefined {
  return dataSet?.elements[tag]?.items?.[0]?.dataSet;
}

/** DICOM DT: YYYYMMDDHHMMSS(.F)(&ZZXX); without a zone it is read as UTC. */
function dateTime(value: string | null): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})?(\d{2})?(\d{2})?(?:\.\d+)?([+-]\d{4})?$/.exec(value ?? '');
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', zone] = match;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const offset = zone ? (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3))) : 0;
  const date = new Date(utc - offset * 60_000);
  return Number.isNaN(date.getTime()) ? null : date;
}

async function describe(
  handle: ReadsAt,
  size: number,
  file: string,
  name: string,
  dataSet: DataSet,
  pixelData: { dataOffset: number; length: number },
): Promise<DicomInstance> {
  const sopClass = text(dataSet, 'x00080016') ?? text(dataSet, 'x00020002') ?? 'none';
  if (sopClass !== WSI_SOP_CLASS) {
    const known = SOP_CLASS_NAMES[sopClass];
    fail(name, `not a whole-slide image (SOP class ${sopClass}${known ? `, ${known}` : ''})`);
  }
  const syntax = text(dataSet, 'x00020010') ?? '';
  const coding = (TRANSFER_SYNTAXES as Record<string, FrameCoding | undefined>)[syntax];
  if (!coding) fail(name, `frames in transfer syntax ${syntax} cannot be read`);
  const seriesUid = text(dataSet, 'x0020000e') ?? fail(name, 'no SeriesInstanceUID');
  const rows = number(dataSet, 'x00280010', 'uint16') ?? fail(name, 'no Rows');
  const columns = number(dataSet, 'x00280011', 'uint16') ?? fail(name, 'no Columns');
  const numberOfFrames = Number(text(dataSet, 'x00280008') ?? '1');
  if (!Number.isInteger(numberOfFrames) || numberOfFrames < 1) fail(name, 'invalid NumberOfFrames');
  const concatenationUid = text(dataSet, 'x00209161');
  const shared = firstItem(dataSet, 'x52009229');
  const measures = firstItem(shared, 'x00289110');
  const rowSpacing = decimal(measures, 'x00280030', 0);
  const columnSpacing = decimal(measures, 'x00280030', 1);
  const opticalPath = firstItem(dataSet, 'x00480105');
  const instance: DicomInstance = {
    file,
    name,
    seriesUid,
    flavour: dataSet.string('x00080008', 2)?.trim().toUpperCase() || 'VOLUME',
    coding,
    photometric: text(dataSet, 'x00280004') ?? 'RGB',
    samplesPerPixel: number(dataSet, 'x00280002', 'uint16') ?? 3,
    bitsAllocated: number(dataSet, 'x00280100', 'uint16') ?? 8,
    planarConfiguration: number(dataSet, 'x00280006', 'uint16') ?? 0,
    rows,
    columns,
    totalColumns: number(dataSet, 'x00480006', 'uint32') ?? columns,
    totalRows: number(dataSet, 'x00480007', 'uint32') ?? rows,
    numberOfFrames,
    organization: text(dataSet, 'x00209311'),
    concatenation: concatenationUid
      ? {
          uid: concatenationUid,
          number: number(dataSet, 'x00209162', 'uint16') ?? 1,
          frameOffset: number(dataSet, 'x00209228', 'uint32') ?? 0,
        }
      : null,
    positions: framePositions(dataSet, numberOfFrames),
    pixelSpacingMm: rowSpacing && columnSpacing ? [rowSpacing, columnSpacing] : null,
    objectivePower: decimal(opticalPath, 'x00480112'),
    manufacturer: text(dataSet, 'x00080070'),
    model: text(dataSet, 'x00081090'),
    acquired: dateTime(text(dataSet, 'x0008002a')),
    frames: [],
  };
  instance.frames =
    coding === 'native'
      ? nativeFrames(instance, pixelData, size)
      : await encapsulatedFrames(handle, size, instance, pixelData.dataOffset);
  return instance;
}

/** Per-frame PlanePositionSlide (1-based in the file); null unless every frame has one. */
function framePositions(dataSet: DataSet, numberOfFrames: number): Array<{ x: number; y: number }> | null {
  const items = dataSet.elements.x52009230?.items;
  if (!items || items.length !== numberOfFrames) return null;
  const positions: Array<{ x: number; y: number }> = [];
  for (const item of items) {
    const plane = firstItem(item.dataSet, 'x0048021a');
    const column = plane && number(plane, 'x0048021e', 'int32');
    const row = plane && number(plane, 'x0048021f', 'int32');
    if (column == null || row == null) return null;
    positions.push({ x: column - 1, y: row - 1 });
  }
  return positions;
}

function nativeFrames(
  instance: DicomInstance,
  pixelData: { dataOffset: number; length: number },
  size: number,
): DicomFrame[] {
  const frameBytes = (instance.rows * instance.columns * instance.samplesPerPixel * instance.bitsAllocated) / 8;
  const needed = frameBytes * instance.numberOfFrames;
  if (pixelData.length < needed) {
    fail(
      instance.name,
      `pixel data holds ${Math.floor(pixelData.length / frameBytes)} of ${instance.numberOfFrames} frames`,
    );
  }
  if (pixelData.dataOffset + needed > size) {
    const present = Math.max(0, Math.floor((size - pixelData.dataOffset) / frameBytes));
    fail(instance.name, `the file is truncated: it holds ${present} of its ${instance.numberOfFrames} frames`);
  }
  return Array.from({ length: instance.numberOfFrames }, (_, i) => [
    { offset: pixelData.dataOffset + i * frameBytes, length: frameBytes },
  ]);
}

/**
 * Walks the encapsulated Pixel Data: the Basic Offset Table, then each fragment's 8-byte item header,
 * skipping its bytes. One fragment per frame is the rule; otherwise the offset table groups them.
 */
async function encapsulatedFrames(
  handle: ReadsAt,
  size: number,
  instance: DicomInstance,
  start: number,
): Promise<DicomFrame[]> {
  const header = Buffer.alloc(8);
  const readItem = async (at: number): Promise<{ tag: number; length: number }> => {
    const { bytesRead } = await handle.read(header, 0, 8, at);
    if (bytesRead < 8) return { tag: -1, length: 0 };
    return { tag: header.readUInt32LE(0), length: header.readUInt32LE(4) };
  };
  const table = await readItem(start);
  if (table.tag !== ITEM) fail(instance.name, 'encapsulated pixel data without its offset table item');
  const offsetTable = Buffer.alloc(table.length);
  await handle.read(offsetTable, 0, table.length, start + 8);
  const fragments: Array<{ offset: number; length: number }> = [];
  let at = start + 8 + table.length;
  for (;;) {
    const item = await readItem(at);
    if (item.tag === SEQUENCE_END) break;
    if (item.tag !== ITEM || at + 8 + item.length > size) {
      fail(
        instance.name,
        `the file is truncated: it holds ${fragments.length} complete frames of ${instance.numberOfFrames}`,
      );
    }
    fragments.push({ offset: at + 8, length: item.length });
    at += 8 + item.length;
  }
  if (fragments.length === instance.numberOfFrames) return fragments.map((fragment) => [fragment]);
  if (instance.numberOfFrames === 1 && fragments.length > 0) return [fragments];
  const starts = Array.from({ length: offsetTable.length / 4 }, (_, i) => offsetTable.readUInt32LE(i * 4));
  if (starts.length !== instance.numberOfFrames || fragments.length < instance.numberOfFrames) {
    fail(instance.name, `the pixel data holds ${fragments.length} fragments for ${instance.numberOfFrames} frames`);
  }
  const first = start + 8 + table.length;
  return starts.map((offset, i) => {
    const from = first + offset;
    const to = i + 1 < starts.length ? first + (starts[i + 1] ?? 0) : Infinity;
    return fragments.filter((fragment) => fragment.offset - 8 >= from && fragment.offset - 8 < to);
  });
}
