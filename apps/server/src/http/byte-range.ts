/** An inclusive byte range within a body of known size. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Reads a `Range` header against a body of `size` bytes (RFC 9110 §14). Returns the one range to
 * send, `'unsatisfiable'` (416), or null to send the whole body: no header, another unit, a
 * malformed value, or several ranges (the RFC lets a server ignore Range, and multipart replies
 * are not worth their complexity for downloads that resume from one offset).
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const match = header == null ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match == null) return null;
  const [, first = '', last = ''] = match;
  if (first === '') {
    // A suffix range: the last N bytes.
    if (last === '') return null;
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}
