import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type yauzl from 'yauzl';
import type { InstanceSpan } from './dicom-read.ts';
import { UnsupportedImageError } from './errors.ts';
import { openZip, type ZipSource } from './vsi-zip.ts';

const MAX_ENTRIES = 100_000;
const MAX_TOTAL_UNCOMPRESSED = 64 * 1024 ** 3;
const MAX_RATIO = 1000;
const RATIO_APPLIES_ABOVE = 100 * 1024 * 1024;
const DICM_END = 132;
/** A zip entry's compression method when its bytes are kept as they are. */
const STORED = 0;

/**
 * One DICOM file of a zip and the name it had there: extracted to `file`, or, stored without compression, read
 * where it lies in the zip (`file` is the zip, `span` its bytes).
 */
export interface ZippedInstance {
  file: string;
  name: string;
  span?: InstanceSpan;
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream)));
  });
}

/** Bytes 0–131 of an entry: enough to see the DICM marker. */
async function entryHead(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const stream = await openEntry(zip, entry);
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= DICM_END) break;
  }
  stream.destroy();
  return Buffer.concat(chunks).subarray(0, DICM_END);
}

function isDicomHead(head: Buffer): boolean {
  return head.length >= DICM_END && head.toString('latin1', 128, DICM_END) === 'DICM';
}

/** Files a zip tool or a desktop adds beside the instances. */
function ignored(name: string): boolean {
  const base = path.posix.basename(name);
  return (
    name.endsWith('/') || name.startsWith('__MACOSX/') || base.startsWith('.') || base.toUpperCase() === 'DICOMDIR'
  );
}

/**
 * Visits each entry that may be an instance, in the zip's order, after the zip-bomb checks; `visit`
 * returns false to stop early.
 */
async function eachEntry(
  file: string | ZipSource,
  visit: (zip: yauzl.ZipFile, entry: yauzl.Entry) => Promise<boolean>,
): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch (error) {
    throw new UnsupportedImageError(`not a readable zip: ${(error as Error).message}`);
  }
  try {
    if (zip.entryCount > MAX_ENTRIES)
      throw new UnsupportedImageError(`zip of ${zip.entryCount} entries (limit ${MAX_ENTRIES})`);
    let total = 0;
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (error: Error) => reject(new UnsupportedImageError(`damaged zip: ${error.message}`)));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        const next = async (): Promise<boolean> => {
          if ((entry.generalPurposeBitFlag & 1) !== 0)
            throw new UnsupportedImageError(`encrypted zip entry ${entry.fileName}`);
          total += entry.uncompressedSize;
          if (total > MAX_TOTAL_UNCOMPRESSED) throw new UnsupportedImageError('zip expands beyond 64 GiB');
          if (
            entry.uncompressedSize > RATIO_APPLIES_ABOVE &&
            entry.uncompressedSize > entry.compressedSize * MAX_RATIO
          ) {
            throw new UnsupportedImageError(`zip entry ${entry.fileName} expands more than ${MAX_RATIO}×`);
          }
          return ignored(entry.fileName) ? true : visit(zip, entry);
        };
        next().then((more) => (more ? zip.readEntry() : resolve()), reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/** Whether a zip is a DICOM upload: its first file that is not a desktop's extra starts as a DICOM file does. */
export async function zipHoldsDicom(file: string | ZipSource): Promise<boolean> {
  let found = false;
  await eachEntry(file, async (zip, entry) => {
    found = isDicomHead(await entryHead(zip, entry));
    return false;
  });
  return found;
}

/**
 * The zip's DICOM files, their frames then read by ranges: those stored without compression (as a viewer's or
 * scanner's export, and JPEG frames gain nothing from deflate) where they lie in the zip, the others extracted
 * into `folder`, streamed to disk under a number of ours. Other files beside them are left out.
 */
export async function dicomZipInstances(file: string, folder: string): Promise<ZippedInstance[]> {
  await mkdir(folder, { recursive: true });
  const extracted: ZippedInstance[] = [];
  await eachEntry(file, async (zip, entry) => {
    if (!isDicomHead(await entryHead(zip, entry))) return true;
    if (entry.compressionMethod === STORED) {
      const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
      extracted.push({ file, name: entry.fileName, span: { start: fileDataStart, size: entry.uncompressedSize } });
      return true;
    }
    const target = path.join(folder, `${extracted.length}.dcm`);
    await pipeline(await openEntry(zip, entry), createWriteStream(target, { flags: 'wx' }));
    extracted.push({ file: target, name: entry.fileName });
    return true;
  });
  if (extracted.length === 0) throw new UnsupportedImageError('DICOM: the zip holds no DICOM file');
  return extracted;
}
