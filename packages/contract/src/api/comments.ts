import { z } from 'zod';
import { maxLengthMessage, requiredError } from './cases.ts';
import { MESSAGES } from './errors.ts';

/** Longest comment text; a case discussion, not a report (attachments carry reports). */
export const MAX_COMMENT_LENGTH = 10_000;

/** A comment's text: not blank, at most MAX_COMMENT_LENGTH characters. */
export const CommentBodySchema = z
  .string(requiredError)
  .trim()
  .min(1, MESSAGES.fieldRequired)
  .max(MAX_COMMENT_LENGTH, maxLengthMessage(MAX_COMMENT_LENGTH));

/** What the caller may do with one comment (edit needs case edit or authorship; see the server's rule). */
export const CommentCapabilitiesSchema = z.object({
  canUpdate: z.boolean(),
  canDelete: z.boolean(),
});
export type CommentCapabilities = z.infer<typeof CommentCapabilitiesSchema>;

export const CommentSchema = z.object({
  id: z.uuid(),
  caseId: z.uuid(),
  /** The image the comment is about, if any. */
  imageId: z.uuid().nullable(),
  /**
   * The text as written. `@name` mentions a member of the case's owner group by display name,
   * "firstName lastName" or e-mail local part; the mentioned member gets a mention.
   */
  body: z.string(),
  /** Null once the author's account is gone; the comment stays. */
  authorAccountId: z.uuid().nullable(),
  /** Display name, else "firstName lastName", else e-mail; null once the account is gone. */
  authorName: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  userCapabilities: CommentCapabilitiesSchema,
});
export type Comment = z.infer<typeof CommentSchema>;

/** GET cases/{id}/comments: the whole thread, oldest first (newest last). */
export const CommentListSchema = z.object({ data: z.array(CommentSchema), total: z.number() });
export type CommentList = z.infer<typeof CommentListSchema>;

export const CreateCommentRequestSchema = z.object({
  body: CommentBodySchema,
  /** An image of the same case the comment is about. */
  imageId: z.uuid().nullable().optional(),
});
export type CreateCommentRequest = z.input<typeof CreateCommentRequestSchema>;

/** PATCH cases/{id}/comments/{commentId} (merge-patch): only the text changes. */
export const UpdateCommentRequestSchema = z.object({ body: CommentBodySchema });
export type UpdateCommentRequest = z.input<typeof UpdateCommentRequestSchema>;

/** Typing @ and this many characters of a name asks for suggestions (part 3 §2). */
export const MENTION_SUGGEST_FROM = 2;

/** A member the comment box suggests after "@": what to show and what to insert. */
export const MentionSuggestionSchema = z.object({
  accountId: z.uuid(),
  name: z.string(),
  /** Inserted after "@": a handle the mention rule recognises. */
  handle: z.string(),
});
export const MentionSuggestionListSchema = z.object({ data: z.array(MentionSuggestionSchema) });
export type MentionSuggestion = z.infer<typeof MentionSuggestionSchema>;
