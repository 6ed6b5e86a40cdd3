/** Separates the case number from the rest of a bulk-upload filename: `S-2024-001--a.svs`. */
export const CASE_NUMBER_SEPARATOR = '--';

/**
 * The case number a bulk-upload filename names (part 1 §5): the part before the first "--", or else the name
 * without its extension, trimmed. Mirrors the server's rule so the list can show it before Preview; the server's
 * answer to batch/parse is the one used.
 */
export function caseNumberFromFilename(filename: string): string {
  const separator = filename.indexOf(CASE_NUMBER_SEPARATOR);
  if (separator >= 0) return filename.slice(0, separator).trim();
  // A leading dot starts a name (".svs"), not an extension.
  const dot = filename.lastIndexOf('.');
  return (dot > 0 ? filename.slice(0, dot) : filename).trim();
}
