import type {
  CreateImageNoteRequestSchema,
  ImageNote,
  ImageNoteList,
  UpdateImageNoteRequestSchema,
} from '@pathology/contract';
import type { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService, VisibleCase } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';
import { findMentions } from '../comments/mentions.ts';
import type { ImageNoteRepository, ImageNoteRow } from './image-note.repository.ts';

type CreateInput = z.output<typeof CreateImageNoteRequestSchema>;
type UpdateInput = z.output<typeof UpdateImageNoteRequestSchema>;

interface Deps {
  notes: ImageNoteRepository;
  capabilities: Pick<CapabilitiesService, 'requireCaseCapability'>;
}

const mayUpdate = (row: ImageNoteRow, caller: Caller) => row.authorAccountId === caller.accountId;
/** The author, or for a public note anyone who may edit the case (clearing up after someone who left). */
const mayDelete = (row: ImageNoteRow, caller: Caller, access: VisibleCase) =>
  mayUpdate(row, caller) || (row.visibility === 'public' && access.capabilities.canEdit);

function toNote(row: ImageNoteRow, caller: Caller, access: VisibleCase): ImageNote {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    userCapabilities: { canUpdate: mayUpdate(row, caller), canDelete: mayDelete(row, caller, access) },
  };
}

/**
 * Notes on an image (part 2 §2, §7): every route needs the image-note capability on the image's
 * case (404 when the case is out of sight). A private note is the author's alone: others get 404.
 * Only the author changes a note. A public note's @mentions are recorded like a comment's; a private
 * note mentions nobody, as nobody else can read it.
 */
export function createImageNoteService({ notes, capabilities }: Deps) {
  async function access(caller: Caller, imageId: string): Promise<VisibleCase> {
    const caseId = isUuid(imageId) ? await notes.caseOf(imageId) : undefined;
    if (caseId == null) throw HttpError.notFound();
    return capabilities.requireCaseCapability(caller, caseId, 'canImageNote');
  }

  async function visibleNote(caller: Caller, imageId: string, noteId: string): Promise<ImageNoteRow> {
    const row = isUuid(noteId) ? await notes.find(noteId) : undefined;
    if (row?.imageId !== imageId || (row.visibility === 'private' && row.authorAccountId !== caller.accountId)) {
      throw HttpError.notFound();
    }
    return row;
  }

  async function mentioned(body: string, visibility: string, visible: VisibleCase, writer: Caller) {
    if (visibility !== 'public') return { accountIds: [], authorAccountId: writer.accountId };
    const candidates = await notes.mentionCandidates(visible.case.ownerOrganization.id);
    const accountIds = findMentions(body, candidates).filter((id) => id !== writer.accountId);
    return { accountIds, authorAccountId: writer.accountId };
  }

  return {
    async list(caller: Caller, imageId: string): Promise<ImageNoteList> {
      const visible = await access(caller, imageId);
      const data = (await notes.list(imageId, caller.accountId)).map((row) => toNote(row, caller, visible));
      return { data, total: data.length };
    },

    async get(caller: Caller, imageId: string, noteId: string): Promise<ImageNote> {
      const visible = await access(caller, imageId);
      return toNote(await visibleNote(caller, imageId, noteId), caller, visible);
    },

    async create(caller: Caller, imageId: string, input: CreateInput): Promise<ImageNote> {
      const visible = await access(caller, imageId);
      const mentions = await mentioned(input.body, input.visibility, visible, caller);
      const id = await notes.create({ imageId, accountId: caller.accountId, ...input }, mentions);
      return toNote((await notes.find(id))!, caller, visible);
    },

    async update(caller: Caller, imageId: string, noteId: string, input: UpdateInput): Promise<ImageNote> {
      const visible = await access(caller, imageId);
      const row = await visibleNote(caller, imageId, noteId);
      if (!mayUpdate(row, caller)) throw HttpError.forbidden();
      const body = input.body ?? row.body;
      const mentions = await mentioned(body, input.visibility ?? row.visibility, visible, caller);
      await notes.update(noteId, input, mentions);
      return toNote((await notes.find(noteId))!, caller, visible);
    },

    async delete(caller: Caller, imageId: string, noteId: string): Promise<void> {
      const visible = await access(caller, imageId);
      const row = await visibleNote(caller, imageId, noteId);
      if (!mayDelete(row, caller, visible)) throw HttpError.forbidden();
      await notes.delete(noteId);
    },
  };
}

export type ImageNoteService = ReturnType<typeof createImageNoteService>;
