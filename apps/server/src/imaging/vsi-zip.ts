import { PassThrough, pipeline, type Readable } from 'node:stream';
import type { Entry, RandomAccessReader, ZipFile } from 'yauzl';
import { yauzl } from '../on-first-use.ts';
import { InvalidVsiZipError } from './errors.ts';

/** A zip read by ranges where it lies (an object in a bucket): `read` streams bytes start ≤ i < end. */
export interface ZipSource {
  size: number;
  read(start: number, end: number): Promise<Readable>;
}

const MAX_ENTRIES = 10_000;
const MAX_TOTAL_UNCOMPRESSED = 64 * 1024 ** 3;
const MAX_RATIO = 1000;
const RATIO_APPLIES_ABOVE = 100 * 1024 * 1024;

/**
 * Checks an Olympus VSI package from the zip's central directory only (nothing is extracted):
 * exactly one top-level `<stem>.vsi` and at least one `_<stem>_/stack…/….ets`.
 */
export async function validateVsiZip(zip: string | ZipSource): Promise<{ vsiName: string }> {
  const names = await readEntryNames(zip);
  const vsiFiles = names.filter((name) => !name.includes('/') && /\.vsi$/i.test(name));
  if (vsiFiles.length !== 1 || vsiFiles[0] === undefined) {
    throw new InvalidVsiZipError(`expected exactly one top-level .vsi file, found ${vsiFiles.length}`);
  }
  const vsiName = vsiFiles[0];
  const folder = `_${vsiName.slice(0, -'.vsi'.length)}_/`;
  const hasFrames = names.some(
    (name) => name.startsWith(folder) && /^stack[^/]*\/(?:[^/]+\/)*[^/]+\.ets$/i.test(name.slice(folder.length)),
  );
  if (!hasFrames) throw new InvalidVsiZipError(`no ${folder}stack*/…/*.ets frame file`);
  return { vsiName };
}

/** yauzl's reads of a ZipSource: each range is one ranged read of the source (its class made with yauzl's first use). */
let rangeReaderClass: (new (source: ZipSource) => RandomAccessReader) | undefined;

function rangeReader(source: ZipSource): RandomAccessReader {
  rangeReaderClass ??= class RangeReader extends yauzl().RandomAccessReader {
    constructor(readonly source: ZipSource) {
      super();
    }

    override _readStreamForRange(start: number, end: number): Readable {
      const out = new PassThrough();
      if (end <= start) return out.end();
      this.source.read(start, end).then(
        (range) => pipeline(range, out, () => undefined),
        (error: unknown) => out.destroy(error as Error),
      );
      return out;
    }
  };
  return new rangeReaderClass(source);
}

export function openZip(source: string | ZipSource): Promise<ZipFile> {
  // strictFileNames makes yauzl reject backslashes instead of rewriting them; it always rejects
  // absolute paths, drive letters and `..` segments (zip-slip).
  const options = { lazyEntries: true, validateEntrySizes: true, strictFileNames: true, autoClose: false };
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, zip: ZipFile) => (error ? reject(error) : resolve(zip));
    if (typeof source === 'string') yauzl().open(source, options, done);
    else yauzl().fromRandomAccessReader(rangeReader(source), source.size, options, done);
  });
}

async function readEntryNames(source: string | ZipSource): Promise<string[]> {
  let zip: ZipFile;
  try {
    zip = await openZip(source);
  } catch (error) {
    throw new InvalidVsiZipError(`not a readable zip: ${(error as Error).message}`);
  }
  try {
    if (zip.entryCount > MAX_ENTRIES) throw new InvalidVsiZipError(`${zip.entryCount} entries (limit ${MAX_ENTRIES})`);
    return await new Promise<string[]>((resolve, reject) => {
      const names: string[] = [];
      let total = 0;
      const fail = (reason: string) => reject(new InvalidVsiZipError(reason));
      zip.on('error', (error: Error) => fail(error.message));
      zip.on('end', () => resolve(names));
      zip.on('entry', (entry: Entry) => {
        // Bit 0 of the general-purpose flags marks encryption, which we could never read.
        if ((entry.generalPurposeBitFlag & 1) !== 0) return fail(`encrypted entry ${entry.fileName}`);
        total += entry.uncompressedSize;
        if (total > MAX_TOTAL_UNCOMPRESSED) return fail('total uncompressed size above 64 GiB');
        if (entry.uncompressedSize > RATIO_APPLIES_ABOVE && entry.uncompressedSize > entry.compressedSize * MAX_RATIO) {
          return fail(`entry ${entry.fileName} expands more than ${MAX_RATIO}×`);
        }
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}
