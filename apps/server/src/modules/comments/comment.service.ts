import {
  MENTION_SUGGEST_FROM,
  type CaseCapabilities,
  type Comment,
  type CommentList,
  type CreateCommentRequestSchema,
  type MentionSuggestion,
  type UpdateCommentRequestSchema,
} from '@pathology/contract';
import { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import { canDeleteComment, canUpdateComment, type CapabilitiesService } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import type { CommentRepository, CommentRow } from './comment.repository.ts';
import { findMentions, normalizeMentionText, suggestMentions } from './mentions.ts';

type CreateInput = z.output<typeof CreateCommentRequestSchema>;
type UpdateInput = z.output<typeof UpdateCommentRequestSchema>;

interface Deps {
  comments: CommentRepository;
  capabilities: Pick<CapabilitiesService, 'requireCaseVisible' | 'requireCaseCapability'>;
}

export const IMAGE_NOT_IN_CASE = 'Choose an image of this case';

const isUuid = (value: string) => z.uuid().safeParse(value).success;

function toComment(row: CommentRow, capabilities: CaseCapabilities, caller: Caller): Comment {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    userCapabilities: {
      canUpdate: canUpdateComment(capabilities, { accountId: row.authorAccountId }, caller.accountId),
      canDelete: canDeleteComment(capabilities, { accountId: row.authorAccountId }, caller.accountId),
    },
  };
}

/**
 * The comment thread of a case. Reading needs only sight of the case, writing needs comment;
 * changing a comment needs edit or authorship, removing one also allows delete (capabilities module).
 * A comment mentions members of the case's owner group (rule in mentions.ts), never its author.
 */
export function createCommentService({ comments, capabilities }: Deps) {
  /**
   * Who the text mentions. The writer (the author, or whoever edits the text) is the mention's
   * author; neither the writer nor the comment's author is ever mentioned by their own comment.
   */
  async function mentionedIn(body: string, ownerOrganizationId: string, writer: Caller, author: string | null) {
    const candidates = await comments.mentionCandidates(ownerOrganizationId);
    const accountIds = findMentions(body, candidates).filter((id) => id !== writer.accountId && id !== author);
    return { accountIds, authorAccountId: writer.accountId };
  }

  /** The comment of this case; 404 for a comment of another case, as for one that does not exist. */
  async function commentOf(caseId: string, commentId: string): Promise<CommentRow> {
    const row = isUuid(commentId) ? await comments.find(commentId) : undefined;
    if (row?.caseId !== caseId) throw HttpError.notFound();
    return row;
  }

  return {
    /** Members of the case's group to offer after "@" (not the writer); needs the comment capability. */
    async suggestMentions(caller: Caller, caseId: string, typed: string): Promise<MentionSuggestion[]> {
      const access = await capabilities.requireCaseCapability(caller, caseId, 'canComment');
      if (normalizeMentionText(typed).trim().length < MENTION_SUGGEST_FROM) return [];
      const candidates = await comments.mentionCandidates(access.case.ownerOrganization.id);
      return suggestMentions(
        candidates.filter((candidate) => candidate.accountId !== caller.accountId),
        typed,
      );
    },

    async list(caller: Caller, caseId: string): Promise<CommentList> {
      const access = await capabilities.requireCaseVisible(caller, caseId);
      const data = (await comments.list(caseId)).map((row) => toComment(row, access.capabilities, caller));
      return { data, total: data.length };
    },

    async create(caller: Caller, caseId: string, input: CreateInput): Promise<Comment> {
      const access = await capabilities.requireCaseCapability(caller, caseId, 'canComment');
      const imageId = input.imageId ?? null;
      if (imageId != null && !(await comments.imageInCase(imageId, caseId))) {
        throw HttpError.validation({ imageId: IMAGE_NOT_IN_CASE });
      }
      const mentions = await mentionedIn(input.body, access.case.ownerOrganization.id, caller, caller.accountId);
      const id = await comments.create({ caseId, imageId, accountId: caller.accountId, body: input.body }, mentions);
      return toComment((await comments.find(id))!, access.capabilities, caller);
    },

    async update(caller: Caller, caseId: string, commentId: string, input: UpdateInput): Promise<Comment> {
      const access = await capabilities.requireCaseVisible(caller, caseId);
      const row = await commentOf(caseId, commentId);
      if (!canUpdateComment(access.capabilities, { accountId: row.authorAccountId }, caller.accountId)) {
        throw HttpError.forbidden();
      }
      const mentions = await mentionedIn(input.body, access.case.ownerOrganization.id, caller, row.authorAccountId);
      await comments.update(commentId, input.body, mentions);
      return toComment((await comments.find(commentId))!, access.capabilities, caller);
    },

    async delete(caller: Caller, caseId: string, commentId: string): Promise<void> {
      const access = await capabilities.requireCaseVisible(caller, caseId);
      const row = await commentOf(caseId, commentId);
      if (!canDeleteComment(access.capabilities, { accountId: row.authorAccountId }, caller.accountId)) {
        throw HttpError.forbidden();
      }
      await comments.delete(commentId);
    },
  };
}

export type CommentService = ReturnType<typeof createCommentService>;
