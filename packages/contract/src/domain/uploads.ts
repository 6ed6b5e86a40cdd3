import { z } from 'zod';

export const UPLOAD_KINDS = ['image', 'attachment'] as const;
export const UploadKindSchema = z.enum(UPLOAD_KINDS);
export type UploadKind = z.infer<typeof UploadKindSchema>;

/** Server-side state of one upload; a `receiving` upload can be resumed from its received byte count. */
export const UPLOAD_STATUSES = ['receiving', 'complete', 'failed', 'aborted'] as const;
export const UploadStatusSchema = z.enum(UPLOAD_STATUSES);
export type UploadStatus = z.infer<typeof UploadStatusSchema>;

/** Image files the viewer can convert. */
export const IMAGE_EXTENSIONS = ['.jpeg', '.jpg', '.png', '.tif', '.tiff', '.svs', '.ndpi'] as const;
/** The upload dialog of the case list also takes VSI or DICOM zips, DICOM files and iSyntax files. */
export const IMAGE_UPLOAD_EXTENSIONS = [...IMAGE_EXTENSIONS, '.zip', '.dcm', '.isyntax', '.i2syntax'] as const;

export const ATTACHMENT_EXTENSIONS = [
  '.pdf',
  '.doc',
  '.docx',
  '.xls',
  '.xlsx',
  '.csv',
  '.ppt',
  '.pptx',
  '.zip',
  '.gif',
  '.bmp',
  '.png',
  '.jpg',
  '.jpeg',
] as const;

/** Characters that break attachment URLs. */
export const FORBIDDEN_ATTACHMENT_FILENAME_CHARS = ['#', '%', '?'] as const;

export const MAX_ATTACHMENT_BYTES = 5 * 1024 ** 3;

/**
 * Image count of a case at which the upload screens warn (part 1 §5, not blocking): the default of the
 * server's MAX_CASE_IMAGES setting, which GET auth/config tells the web.
 */
export const DEFAULT_MAX_CASE_IMAGES = 200;
