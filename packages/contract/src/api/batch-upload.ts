import { z } from 'zod';
import { UploadFilenameSchema } from './images.ts';

/** Most filenames one POST batch/parse takes. */
export const MAX_BATCH_PARSE_FILENAMES = 1000;

/** Bulk upload messages (part 1 §5); the web translates them by key. */
export const BATCH_UPLOAD_MESSAGES = {
  /** The case already has an image of that name, or the name came earlier in the same batch. */
  fileAlreadyExists: 'File already exists',
  /** Nothing is left of the filename once "--…" or the extension is dropped. */
  noCaseNumber: 'The filename does not start with a case number',
} as const;

/** POST batch/parse: which case each file of a bulk upload goes to. */
export const BatchParseRequestSchema = z.object({
  /** The group the cases are looked up in (and would be created in); needs org/create_case. */
  organizationId: z.string(),
  filenames: z.array(UploadFilenameSchema).max(MAX_BATCH_PARSE_FILENAMES),
});
export type BatchParseRequest = z.input<typeof BatchParseRequestSchema>;

export const BatchParseItemSchema = z.object({
  filename: z.string(),
  /** The part before the first "--", else the name without its extension; trimmed. */
  caseNumber: z.string(),
  /** A case of the group with exactly that case number (the oldest, when several share it), else null. */
  caseId: z.uuid().nullable(),
  /** Whether that case exists (caseId is set). */
  exists: z.boolean(),
  /** The case already has an image of that name, or the name came earlier in this request. */
  fileAlreadyExists: z.boolean(),
  /** Why the file cannot be uploaded as it is (BATCH_UPLOAD_MESSAGES). */
  error: z.string().optional(),
});
export type BatchParseItem = z.infer<typeof BatchParseItemSchema>;

/** One item per filename, in the request's order. */
export const BatchParseResponseSchema = z.object({ data: z.array(BatchParseItemSchema) });
export type BatchParseResponse = z.infer<typeof BatchParseResponseSchema>;
/** Separates the case number from the rest of a bulk-upload filename: `S-2024-001--a.svs`. */
export const CASE_NUMBER_SEPARATOR = '--';

/**
 * The case number a bulk-upload filename names (part 1 §5): the part before the first "--", or
 * else the name without its extension; surrounding blanks dropped. May be empty ("--a.svs").
 */
export function caseNumberFromFilename(filename: string): string {
  const separator = filename.indexOf(CASE_NUMBER_SEPARATOR);
  if (separator >= 0) return filename.slice(0, separator).trim();
  // A leading dot starts a name (".svs"), not an extension.
  const dot = filename.lastIndexOf('.');
  return (dot > 0 ? filename.slice(0, dot) : filename).trim();
}
