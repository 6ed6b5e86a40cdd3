import { MESSAGES, type Case, type CreateCaseRequestSchema, type UpdateCaseRequestSchema } from '@pathology/contract';
import type { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { CaseViews } from './case-view.ts';
import type { CaseChanges, CaseContents, CaseRepository } from './case.repository.ts';

type CreateInput = z.output<typeof CreateCaseRequestSchema>;
type UpdateInput = z.output<typeof UpdateCaseRequestSchema>;

interface Deps {
  cases: Pick<CaseRepository, 'insertCase' | 'updateCase' | 'deleteCase'>;
  views: Pick<CaseViews, 'one'>;
  capabilities: Pick<
    CapabilitiesService,
    'requireCaseVisible' | 'requireCaseCapability' | 'getOrganizationCapabilities'
  >;
  blobs: Pick<BlobStore, 'deleteMany'>;
}

/** One message for a group that is absent, invisible or closed to the caller: existence is not leaked. */
export const GROUP_NOT_ALLOWED = 'Choose a group where you may create cases';
export const CASE_CHANGED = 'The case was changed meanwhile; reload it and try again';

const TEXT_FIELDS = ['organ', 'diagnosis', 'grossFindings', 'microscopicFindings', 'comments'] as const;

/** Blank text is no text: stored as null so "is-empty" searches find it. */
function text(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

function uniqueTags(tags: readonly string[]): string[] {
  return [...new Set(tags)];
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** The 409 text of a non-recursive delete, e.g. "The case has 2 images, 0 attachments and 1 comment. …". */
export function caseContentsMessage(contents: CaseContents): string {
  const images = plural(contents.images, 'image');
  const attachments = plural(contents.attachments, 'attachment');
  const comments = plural(contents.comments, 'comment');
  return `The case has ${images}, ${attachments} and ${comments}. Delete it recursively to remove them as well.`;
}

/**
 * Case detail rules: create (owner group where the caller may create cases; super users also name
 * the slide provider), update (edit; moving it to another group also needs transfer), delete.
 */
export function createCaseService({ cases, views, capabilities, blobs }: Deps) {
  async function mayCreateIn(caller: Caller, organizationId: string): Promise<boolean> {
    return (await capabilities.getOrganizationCapabilities(caller, organizationId))?.canCreateCase === true;
  }

  return {
    /** GET cases/{id}: any caller who may see the case. */
    async get(caller: Caller, caseId: string): Promise<Case> {
      await capabilities.requireCaseVisible(caller, caseId);
      return views.one(caller, caseId);
    },

    /** POST cases: every field problem is a 422 naming the field, never a 500. */
    async create(caller: Caller, input: CreateInput): Promise<Case> {
      const errors: Record<string, string> = {};
      if (!(await mayCreateIn(caller, input.ownerOrganizationId))) errors.ownerOrganizationId = GROUP_NOT_ALLOWED;
      // Only super users are shown the slide provider, so only theirs counts (and is required).
      const provider = caller.isSuperUser ? (input.intendedOwnerOrganizationId ?? null) : null;
      if (caller.isSuperUser && provider == null) errors.intendedOwnerOrganizationId = MESSAGES.fieldRequired;
      else if (provider != null && !(await mayCreateIn(caller, provider))) {
        errors.intendedOwnerOrganizationId = GROUP_NOT_ALLOWED;
      }
      if (Object.keys(errors).length > 0) throw HttpError.validation(errors);

      const id = await cases.insertCase({
        caseNumber: input.caseNumber,
        ownerOrganizationId: input.ownerOrganizationId,
        intendedOwnerOrganizationId: provider,
        organ: text(input.organ),
        specimenType: input.specimenType ?? null,
        diagnosis: text(input.diagnosis),
        grossFindings: text(input.grossFindings),
        microscopicFindings: text(input.microscopicFindings),
        comments: text(input.comments),
        tags: uniqueTags(input.tags ?? []),
        isPublic: input.isPublic ?? false,
        createdByAccountId: caller.accountId,
      });
      // The group was deleted between the check and the insert.
      if (id == null) throw HttpError.validation({ ownerOrganizationId: GROUP_NOT_ALLOWED });
      return views.one(caller, id);
    },

    /**
     * PATCH cases/{id}: needs edit. A new owner group also needs transfer on the case (403) and a
     * destination where the caller may create cases (422 on the field).
     */
    async update(caller: Caller, caseId: string, patch: UpdateInput): Promise<Case> {
      const access = await capabilities.requireCaseCapability(caller, caseId, 'canEdit');
      const currentOwner = access.case.ownerOrganization.id;
      const changes: CaseChanges = {};
      const errors: Record<string, string> = {};

      if (patch.caseNumber !== undefined) changes.caseNumber = patch.caseNumber;
      for (const field of TEXT_FIELDS) if (patch[field] !== undefined) changes[field] = text(patch[field]);
      if (patch.specimenType !== undefined) changes.specimenType = patch.specimenType;
      if (patch.tags !== undefined) changes.tags = uniqueTags(patch.tags ?? []);
      if (patch.isPublic !== undefined) changes.isPublic = patch.isPublic;

      const owner = patch.ownerOrganizationId;
      if (owner !== undefined && owner !== currentOwner) {
        if (!access.capabilities.canTransfer) throw HttpError.forbidden();
        if (await mayCreateIn(caller, owner)) changes.ownerOrganizationId = owner;
        else errors.ownerOrganizationId = GROUP_NOT_ALLOWED;
      }
      // Everyone else is shown null here; their form sending it back must change nothing.
      const provider = patch.intendedOwnerOrganizationId;
      if (caller.isSuperUser && provider !== undefined) {
        if (provider == null || (await mayCreateIn(caller, provider))) changes.intendedOwnerOrganizationId = provider;
        else errors.intendedOwnerOrganizationId = GROUP_NOT_ALLOWED;
      }
      if (Object.keys(errors).length > 0) throw HttpError.validation(errors);

      if (!(await cases.updateCase(caseId, changes, currentOwner))) throw HttpError.conflict(CASE_CHANGED);
      return views.one(caller, caseId);
    },

    /**
     * DELETE cases/{id}: needs delete. A case with images, attachments or comments goes only with
     * `recursive`; the files no other case shares go with it. Answers the keys of those files.
     */
    async delete(caller: Caller, caseId: string, options: { recursive: boolean }): Promise<string[]> {
      await capabilities.requireCaseCapability(caller, caseId, 'canDelete');
      const result = await cases.deleteCase(caseId, options);
      switch (result.status) {
        case 'not_found':
          throw HttpError.notFound();
        case 'has_contents':
          throw HttpError.conflict(caseContentsMessage(result.contents));
        case 'deleted':
          await blobs.deleteMany(result.releasedBlobKeys);
          return result.releasedBlobKeys;
      }
    },
  };
}

export type CaseService = ReturnType<typeof createCaseService>;
