/** Kinds recognised from the first bytes of a file (content, never the extension). */
export type SniffedKind = 'tiff' | 'bigtiff' | 'jpeg' | 'png' | 'zip' | 'isyntax' | 'dicom' | null;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ISYNTAX_MARKER = '<DataObject ObjectType="DPUfsImport"';

/** `head` is the first up-to-4096 bytes of the file. */
export function sniffKind(head: Buffer): SniffedKind {
  if (head.length >= 4) {
    const order = head.toString('latin1', 0, 2);
    if (order === 'II' || order === 'MM') {
      const magic = order === 'II' ? head.readUInt16LE(2) : head.readUInt16BE(2);
      if (magic === 42) return 'tiff';
      if (magic === 43) return 'bigtiff';
    }
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  // Local file header, or the end-of-central-directory record of an empty archive.
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b) {
    if ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6)) return 'zip';
  }
  // DICOM Part 10: a 128-byte preamble (free for other uses, even a TIFF header), then DICM.
  if (head.length >= 132 && head.toString('latin1', 128, 132) === 'DICM') return 'dicom';
  // iSyntax starts with a plain XML header; the marker sits within its first few hundred bytes.
  if (head.toString('latin1').includes(ISYNTAX_MARKER)) return 'isyntax';
  return null;
}

const KINDS_BY_EXTENSION: Record<string, readonly SniffedKind[]> = {
  '.svs': ['tiff', 'bigtiff'],
  '.ndpi': ['tiff', 'bigtiff'],
  '.tif': ['tiff', 'bigtiff'],
  '.tiff': ['tiff', 'bigtiff'],
  '.jpg': ['jpeg'],
  '.jpeg': ['jpeg'],
  '.png': ['png'],
  '.zip': ['zip'],
  '.dcm': ['dicom'],
  '.isyntax': ['isyntax'],
  '.i2syntax': ['isyntax'],
};

/** Whether an upload extension (lowercase, with dot) may carry content of this kind. */
export function kindMatchesExtension(kind: SniffedKind, extension: string): boolean {
  if (kind === null || !Object.hasOwn(KINDS_BY_EXTENSION, extension)) return false;
  return KINDS_BY_EXTENSION[extension]?.includes(kind) ?? false;
}
