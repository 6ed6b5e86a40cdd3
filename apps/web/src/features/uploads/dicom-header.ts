import dicomParser, { type DataSet } from 'dicom-parser';

/** VL Whole Slide Microscopy Image Storage: the only SOP class the server converts. */
export const WSI_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.77.1.6';
const SOP_CLASS = 'x00080016';
const SERIES_UID = 'x0020000e';
const PIXEL_DATA = 'x7fe00010';
const FIRST_READ = 64 * 1024;
/** A header past this (an ICC profile is a few hundred KB) is no slide we know. */
const MAX_HEADER_BYTES = 16 * 1024 * 1024;

export interface DicomHeader {
  sopClassUid: string;
  seriesInstanceUid: string;
}

function found(dataSet: DataSet | undefined): DicomHeader | null {
  const sopClassUid = dataSet?.string(SOP_CLASS);
  const seriesInstanceUid = dataSet?.string(SERIES_UID);
  return sopClassUid && seriesInstanceUid ? { sopClassUid, seriesInstanceUid } : null;
}

/**
 * The SOP class and series of a Part 10 file, from its start only: a slide's instance may be gigabytes, so the
 * file is read in growing pieces until both are known (dicom-parser gives what it read before a piece ran out).
 * Null when the file is no DICOM or its header cannot be read.
 */
export async function readDicomHeader(file: Blob): Promise<DicomHeader | null> {
  for (let want = Math.min(FIRST_READ, file.size); ; want = Math.min(want * 4, file.size)) {
    const bytes = new Uint8Array(await file.slice(0, want).arrayBuffer());
    let dataSet: DataSet | undefined;
    try {
      dataSet = dicomParser.parseDicom(bytes, { untilTag: PIXEL_DATA });
    } catch (error) {
      // No DICM marker, or the piece ended inside an element: what came before it may be enough.
      dataSet =
        typeof error === 'object' && error != null && 'dataSet' in error ? (error.dataSet as DataSet) : undefined;
    }
    const header = found(dataSet);
    if (header != null || want >= file.size || want >= MAX_HEADER_BYTES) return header;
  }
}
