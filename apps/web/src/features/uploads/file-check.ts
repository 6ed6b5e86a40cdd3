import { readDicomHeader, WSI_SOP_CLASS } from './dicom-header.ts';
import { extensionOf } from './file-types.ts';

const TIFF_EXTENSIONS = new Set(['.tif', '.tiff', '.svs', '.ndpi']);
/** Little- and big-endian TIFF, then BigTIFF (which large slides use). */
const TIFF_MAGICS = [
  [0x49, 0x49, 0x2a, 0x00],
  [0x4d, 0x4d, 0x00, 0x2a],
  [0x49, 0x49, 0x2b, 0x00],
  [0x4d, 0x4d, 0x00, 0x2b],
];

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const END_RECORD_SIZE = 22;
/** The end record sits within its own size plus the longest comment from the end of the file. */
const END_RECORD_SEARCH = END_RECORD_SIZE + 0xffff;
/** A ZIP64 archive keeps the real offset elsewhere; the server reads those itself. */
const ZIP64_MARKER = 0xffffffff;

async function bytesAt(file: Blob, start: number, end: number): Promise<DataView> {
  return new DataView(await file.slice(start, end).arrayBuffer());
}

async function isTiff(file: Blob): Promise<boolean> {
  const head = await bytesAt(file, 0, 4);
  return TIFF_MAGICS.some((magic) => head.byteLength === 4 && magic.every((byte, i) => head.getUint8(i) === byte));
}

/** A whole-slide image's DICOM instance: the only DICOM the server converts (a CT slice is not one). */
async function isSlideInstance(file: Blob): Promise<boolean> {
  return (await readDicomHeader(file))?.sopClassUid === WSI_SOP_CLASS;
}

/** The zip's listing can be read: its end record points at a central directory that is there. */
async function hasCentralDirectory(file: Blob): Promise<boolean> {
  const tailStart = Math.max(0, file.size - END_RECORD_SEARCH);
  const tail = await bytesAt(file, tailStart, file.size);
  for (let at = tail.byteLength - END_RECORD_SIZE; at >= 0; at -= 1) {
    if (tail.getUint32(at, true) !== END_OF_CENTRAL_DIRECTORY) continue;
    const entries = tail.getUint16(at + 10, true);
    const size = tail.getUint32(at + 12, true);
    const offset = tail.getUint32(at + 16, true);
    if (offset === ZIP64_MARKER || size === ZIP64_MARKER) return true;
    if (entries === 0) return size === 0;
    if (offset + size > tailStart + at) return false;
    const first = await bytesAt(file, offset, offset + 4);
    return first.byteLength === 4 && first.getUint32(0, true) === CENTRAL_DIRECTORY_ENTRY;
  }
  return false;
}

/**
 * Reads what the upload flows check of a file before sending it: a TIFF-based slide's header, a zip's listing, a DICOM file's header, or
 * for any other type its first byte. False when the file cannot be read (moved, changed or unreadable since it was
 * chosen) or does not hold what its name says, so "Error while parsing the file" names it before any upload starts.
 */
export async function canParse(file: File): Promise<boolean> {
  try {
    const extension = extensionOf(file.name);
    if (TIFF_EXTENSIONS.has(extension)) return await isTiff(file);
    if (extension === '.zip') return await hasCentralDirectory(file);
    if (extension === '.dcm') return await isSlideInstance(file);
    await file.slice(0, 1).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/** The files of a selection that cannot be parsed, read one after the other. */
export async function unparsableFiles<T extends File>(files: readonly T[]): Promise<T[]> {
  const failed: T[] = [];
  for (const file of files) if (!(await canParse(file))) failed.push(file);
  return failed;
}
