import { z } from 'zod';
import { ATTACHMENT_EXTENSIONS, FORBIDDEN_ATTACHMENT_FILENAME_CHARS } from '../domain/uploads.ts';
import { UploadFilenameSchema } from './images.ts';

/** Attachment messages with the spec's wording (part 2 §5, §8); the web translates them by key. */
export const ATTACHMENT_MESSAGES = {
  /** Title of the unsupported-files alert (shown by the web). */
  chooseAttachments: 'Please choose attachments files.',
  /** 415 on upload; `${names}` is the comma-separated list of rejected names. */
  unsupportedFiles: 'Unsupported files: ${names}',
  /** 409 on upload: the case already has an attachment of that name. */
  duplicateFiles: 'Duplicate files',
  /** 422 on upload. */
  forbiddenCharacters: 'The characters # % ? cannot be used in filenames',
  /** 413 on upload. */
  tooLarge: 'The file is larger than 5 GB',
  emptyFile: 'The file is empty',
  /** 415 on upload: the bytes are not what the extension says (HTML named .pdf). */
  contentDoesNotMatchExtension: 'The file content does not match its extension',
  uploadIncomplete: 'The upload ended before the whole file was received',
  deleteTitle: 'Delete Attachment',
  deleteConfirm: 'Are you sure you want to delete the file?',
  deleteFailed: 'Failed to delete "${filename}"',
  downloadFailed: 'Failed to download "${filename}"',
  previewFailed: 'Please go back and view this PDF again.',
} as const;

/** 'Unsupported files: a.exe, b.txt'. */
export function unsupportedFilesMessage(names: readonly string[]): string {
  return ATTACHMENT_MESSAGES.unsupportedFiles.replace('${names}', names.join(', '));
}

export type AttachmentExtension = (typeof ATTACHMENT_EXTENSIONS)[number];

/** The Content-Type an attachment is stored and served with, by its (lowercase) extension. */
export const ATTACHMENT_CONTENT_TYPES: Record<AttachmentExtension, string> = {
  '.pdf': 'application/pdf',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.csv': 'text/csv',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.zip': 'application/zip',
  '.gif': 'image/gif',
  '.bmp': 'image/bmp',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};

/** Content types the web previews in the browser (the PDF preview screen); others are downloads. */
export const PREVIEWABLE_ATTACHMENT_CONTENT_TYPES = ['application/pdf'] as const;

/** The supported extension of a filename (case-insensitive), or null. */
export function attachmentExtension(filename: string): AttachmentExtension | null {
  const dot = filename.lastIndexOf('.');
  if (dot <= 0) return null;
  const extension = filename.slice(dot).toLowerCase();
  return (ATTACHMENT_EXTENSIONS as readonly string[]).includes(extension) ? (extension as AttachmentExtension) : null;
}

/** An upload filename (UploadFilenameSchema) without the characters that break attachment URLs. */
export const AttachmentFilenameSchema = UploadFilenameSchema.refine(
  (name) => !FORBIDDEN_ATTACHMENT_FILENAME_CHARS.some((character) => name.includes(character)),
  ATTACHMENT_MESSAGES.forbiddenCharacters,
);

/** A document attached to a case (part 2 §3). */
export const AttachmentSchema = z.object({
  id: z.uuid(),
  filename: z.string(),
  /** From the extension; application/pdf for .pdf. */
  contentType: z.string(),
  sizeBytes: z.number().int(),
  createdAt: z.iso.datetime(),
  /** Who uploaded it; null once that account is gone. */
  uploadAccountId: z.uuid().nullable(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** GET cases/{id}/attachments: sorted by filename. */
export const AttachmentListSchema = z.object({ caseId: z.uuid(), attachments: z.array(AttachmentSchema) });
export type AttachmentList = z.infer<typeof AttachmentListSchema>;

/** GET cases/{id}/attachments/{attachmentId}: the attachment and where its content is read. */
export const AttachmentDetailSchema = AttachmentSchema.extend({
  /** Path of the content (GET, bearer token); add ?disposition=inline to preview a PDF. */
  url: z.string(),
});
export type AttachmentDetail = z.infer<typeof AttachmentDetailSchema>;

/** The path of an attachment's content, relative to the server root. */
export function attachmentContentPath(caseId: string, attachmentId: string): string {
  return `/api/v1/cases/${caseId}/attachments/${attachmentId}/content`;
}

/** POST cases/{id}/attachments/upload?filename with the file as the raw body. */
export const AttachmentUploadQuerySchema = z.object({ filename: AttachmentFilenameSchema });
export type AttachmentUploadQuery = z.input<typeof AttachmentUploadQuerySchema>;

/** GET …/content: `inline` shows a PDF in the browser; everything else is sent as a download. */
export const AttachmentContentQuerySchema = z.object({
  disposition: z.enum(['inline', 'attachment']).default('attachment'),
});
export type AttachmentContentQuery = z.input<typeof AttachmentContentQuerySchema>;
