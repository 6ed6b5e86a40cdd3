/** RFC 5987 attr-char: what may stand unescaped in `filename*`. */
const ATTR_CHAR = /^[A-Za-z0-9!#$&+\-.^_`|~]$/;

/** Percent-encodes UTF-8 bytes outside attr-char; lone surrogates become U+FFFD rather than throwing. */
function encodeExtValue(value: string): string {
  let encoded = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const character = String.fromCharCode(byte);
    encoded +=
      byte < 0x80 && ATTR_CHAR.test(character) ? character : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/**
 * `attachment` with both filename forms (RFC 6266): an ASCII fallback for old clients and the
 * exact name as UTF-8 in `filename*`. Quotes, backslashes, control characters (CR/LF: header
 * injection) and non-ASCII never reach the quoted fallback, so a stored name cannot break the header.
 */
export function attachmentDisposition(filename: string, fallbackName = 'download'): string {
  // '%' too: some browsers percent-decode the plain filename parameter.
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_').trim();
  const fallback = ascii === '' || /^_*$/.test(ascii) ? fallbackName : ascii;
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeExtValue(filename)}`;
}
