import { readTiffDirectoryAt, readTiffStructure, type ByteReader } from './tiff-structure.ts';
import { parseTiffDateTime } from './resolution.ts';

const EXIF_IFD_POINTER = 34665;
const DATE_TIME_ORIGINAL = 36867;

function bufferReader(data: Buffer): ByteReader {
  return { size: data.length, read: async (position, length) => data.subarray(position, position + length) };
}

/** EXIF DateTimeOriginal, else IFD0 DateTime. EXIF is a TIFF structure, so the TIFF reader parses it. */
export async function exifDate(exif: Buffer | undefined): Promise<Date | null> {
  if (!exif) return null;
  // sharp returns the APP1 payload, which starts with "Exif\0\0" before the TIFF header.
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  try {
    const reader = bufferReader(tiff);
    const [ifd0] = (await readTiffStructure(reader)).pages;
    const pointer = ifd0?.tags.get(EXIF_IFD_POINTER)?.value;
    if (Array.isArray(pointer) && pointer[0] !== undefined) {
      const original = (await readTiffDirectoryAt(reader, pointer[0])).get(DATE_TIME_ORIGINAL)?.value;
      const date = typeof original === 'string' ? parseTiffDateTime(original) : null;
      if (date) return date;
    }
    return parseTiffDateTime(ifd0?.dateTime);
  } catch {
    // Broken EXIF only loses the date; the pixels are still fine.
    return null;
  }
}
