import type { AttachmentExtension } from '@pathology/contract';
import { sniffKind } from '../../imaging/index.ts';

const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** Readers accept `%PDF-` anywhere in the first 1024 bytes (some generators put a line before it). */
const PDF_HEADER_WINDOW = 1024;
/** Markup that makes a browser render a "CSV" as a page if it were ever served inline. */
const MARKUP_START = /^\s*<(?:!doctype|html|head|body|script|svg|\?xml)/i;

const startsWith = (head: Buffer, signature: Buffer) => head.subarray(0, signature.length).equals(signature);
// JPEG, PNG and zip are told the way image uploads tell them.
const isZip = (head: Buffer) => sniffKind(head) === 'zip';
const isJpeg = (head: Buffer) => sniffKind(head) === 'jpeg';

const UTF16_BOMS = [Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff])];
/** Plain text (UTF-8, Shift_JIS, or UTF-16 with its byte-order mark), and not a web page. */
const isText = (head: Buffer) =>
  UTF16_BOMS.some((bom) => startsWith(head, bom)) || (!head.includes(0) && !MARKUP_START.test(head.toString('latin1')));

const CHECKS: Record<AttachmentExtension, (head: Buffer) => boolean> = {
  '.pdf': (head) => head.subarray(0, PDF_HEADER_WINDOW).includes('%PDF-'),
  // Office 97–2003 files are OLE2 compound documents; the 2007+ formats are zip packages.
  '.doc': (head) => startsWith(head, OLE2),
  '.xls': (head) => startsWith(head, OLE2),
  '.ppt': (head) => startsWith(head, OLE2),
  '.docx': isZip,
  '.xlsx': isZip,
  '.pptx': isZip,
  '.zip': isZip,
  '.csv': isText,
  '.gif': (head) => ['GIF87a', 'GIF89a'].includes(head.toString('latin1', 0, 6)),
  '.bmp': (head) => head.toString('latin1', 0, 2) === 'BM',
  '.png': (head) => sniffKind(head) === 'png',
  '.jpg': isJpeg,
  '.jpeg': isJpeg,
};

/** Whether the first bytes of a file are what its attachment extension promises. */
export function attachmentContentMatches(head: Buffer, extension: AttachmentExtension): boolean {
  return CHECKS[extension](head);
}
