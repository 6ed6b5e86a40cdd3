import { z } from 'zod';
import { DrawingVisibilitySchema } from '../domain/drawings.ts';
import { maxLengthMessage, requiredError } from './cases.ts';
import { MESSAGES } from './errors.ts';

/** Longest note on an image, as long as a comment. */
export const MAX_IMAGE_NOTE_LENGTH = 10_000;

export const ImageNoteBodySchema = z
  .string(requiredError)
  .trim()
  .min(1, MESSAGES.fieldRequired)
  .max(MAX_IMAGE_NOTE_LENGTH, maxLengthMessage(MAX_IMAGE_NOTE_LENGTH));

export const ImageNoteSchema = z.object({
  id: z.uuid(),
  imageId: z.uuid(),
  /** The text as written; `@name` mentions a member of the case's owner group (public notes only). */
  body: z.string(),
  /** Private notes are seen by their author only. */
  visibility: DrawingVisibilitySchema,
  authorAccountId: z.uuid().nullable(),
  authorName: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  userCapabilities: z.object({ canUpdate: z.boolean(), canDelete: z.boolean() }),
});
export type ImageNote = z.infer<typeof ImageNoteSchema>;

/** GET images/{id}/notes: newest first. */
export const ImageNoteListSchema = z.object({ data: z.array(ImageNoteSchema), total: z.number() });
export type ImageNoteList = z.infer<typeof ImageNoteListSchema>;

export const CreateImageNoteRequestSchema = z.object({
  body: ImageNoteBodySchema,
  visibility: DrawingVisibilitySchema.default('public'),
});
export type CreateImageNoteRequest = z.input<typeof CreateImageNoteRequestSchema>;

/** PATCH (merge-patch): the text, the visibility, or both. */
export const UpdateImageNoteRequestSchema = z.object({
  body: ImageNoteBodySchema.optional(),
  visibility: DrawingVisibilitySchema.optional(),
});
export type UpdateImageNoteRequest = z.input<typeof UpdateImageNoteRequestSchema>;
