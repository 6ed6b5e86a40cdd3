import { randomUUID } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import {
  ATTACHMENT_CONTENT_TYPES,
  ATTACHMENT_MESSAGES,
  MAX_ATTACHMENT_BYTES,
  attachmentContentPath,
  attachmentExtension,
  unsupportedFilesMessage,
  type Attachment,
  type AttachmentExtension,
  type AttachmentDetail,
  type AttachmentList,
} from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { parseByteRange, type ByteRange } from '../../http/byte-range.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';
import { BlobNotFoundError, type BlobStore } from '../../storage/blob-store.ts';
import type { AttachmentRepository, AttachmentRow } from './attachment.repository.ts';
import { SizeLimit, asUploadError, attachmentContentCheck, tooLarge } from './attachment-stream.ts';

interface Deps {
  attachments: AttachmentRepository;
  blobs: Pick<BlobStore, 'put' | 'get' | 'delete' | 'deleteMany'>;
  capabilities: Pick<CapabilitiesService, 'requireCaseVisible' | 'requireCaseCapability'>;
  /** Largest attachment accepted; MAX_ATTACHMENT_BYTES unless a test wants a smaller one. */
  maxBytes?: number;
}

/** An upload that passed every check needing no bytes: the caller may edit the case, the type is supported, the name is free. */
export interface PreparedAttachmentUpload {
  caseId: string;
  filename: string;
  extension: AttachmentExtension;
  contentType: string;
  accountId: string;
  /** The announced length (Content-Length), when there was one. */
  size?: number;
}

/** What GET …/content sends: the whole blob, or one range of it. */
export interface AttachmentContent {
  attachment: AttachmentRow;
  body: Readable;
  range: ByteRange | null;
}

/** Blobs of attachments are named by a fresh id, never by the user's filename. */
export const attachmentBlobKey = (attachmentId: string) => `attachments/${attachmentId}`;

export function toAttachment(row: AttachmentRow): Attachment {
  return {
    id: row.id,
    filename: row.filename,
    contentType: row.contentType,
    sizeBytes: row.sizeBytes,
    createdAt: row.createdAt.toISOString(),
    uploadAccountId: row.uploadAccountId,
  };
}

/**
 * Attachments of a case (part 2 §4–§7): anyone who sees the case reads them; adding and deleting
 * need edit (case/update). Bytes stream into the blob store; the row, with its usage, is written
 * only once every byte is stored, so a cut connection or a rejected file leaves nothing behind.
 */
export function createAttachmentService({ attachments, blobs, capabilities, maxBytes = MAX_ATTACHMENT_BYTES }: Deps) {
  async function findIn(caseId: string, attachmentId: string): Promise<AttachmentRow> {
    const row = isUuid(attachmentId) ? await attachments.find(caseId, attachmentId) : undefined;
    if (row == null) throw HttpError.notFound();
    return row;
  }

  return {
    /** GET cases/{id}/attachments, by filename. */
    async list(caller: Caller, caseId: string): Promise<AttachmentList> {
      await capabilities.requireCaseVisible(caller, caseId);
      const rows = await attachments.list(caseId);
      return { caseId, attachments: rows.map(toAttachment) };
    },

    /** GET cases/{id}/attachments/{attachmentId}, with the path of its content. */
    async get(caller: Caller, caseId: string, attachmentId: string): Promise<AttachmentDetail> {
      await capabilities.requireCaseVisible(caller, caseId);
      const row = await findIn(caseId, attachmentId);
      return { ...toAttachment(row), url: attachmentContentPath(caseId, row.id) };
    },

    /** Opens the content, or the one range a `Range` header asks for (416 when it starts past the end). */
    async openContent(
      caller: Caller,
      caseId: string,
      attachmentId: string,
      rangeHeader?: string,
    ): Promise<AttachmentContent> {
      await capabilities.requireCaseVisible(caller, caseId);
      const attachment = await findIn(caseId, attachmentId);
      const range = parseByteRange(rangeHeader, attachment.sizeBytes);
      if (range === 'unsatisfiable') throw new HttpError(416, 'Range Not Satisfiable');
      try {
        const body = await blobs.get(attachment.blobKey, range ?? undefined);
        return { attachment, body, range };
      } catch (error) {
        if (error instanceof BlobNotFoundError) throw HttpError.notFound();
        throw error;
      }
    },

    /** The checks of POST cases/{id}/attachments/upload made before any byte is read. */
    async prepareUpload(
      caller: Caller,
      caseId: string,
      filename: string,
      size?: number,
    ): Promise<PreparedAttachmentUpload> {
      const access = await capabilities.requireCaseCapability(caller, caseId, 'canEdit');
      const extension = attachmentExtension(filename);
      if (extension == null) throw new HttpError(415, unsupportedFilesMessage([filename]));
      if (size != null && size > maxBytes) throw tooLarge();
      if (await attachments.filenameTaken(caseId, filename))
        throw HttpError.conflict(ATTACHMENT_MESSAGES.duplicateFiles);
      await attachments.assertStorageRoom(access.case.ownerOrganization.id, size);
      const contentType = ATTACHMENT_CONTENT_TYPES[extension];
      return { caseId, filename, extension, contentType, accountId: caller.accountId, size };
    },

    /** Stores the body of a prepared upload, then records it and its usage. */
    async receiveUpload(prepared: PreparedAttachmentUpload, body: Readable): Promise<Attachment> {
      const id = randomUUID();
      const blobKey = attachmentBlobKey(id);
      try {
        // pipeline destroys the checks when the body errors or ends early (a cut connection), so put() fails.
        const checked = pipeline(body, new SizeLimit(maxBytes), attachmentContentCheck(prepared.extension), () => {});
        const stored = await blobs.put(blobKey, checked, { size: prepared.size, contentType: prepared.contentType });
        const result = await attachments.insert({
          id,
          caseId: prepared.caseId,
          filename: prepared.filename,
          contentType: prepared.contentType,
          sizeBytes: stored.size,
          blobKey,
          uploadAccountId: prepared.accountId,
        });
        switch (result.status) {
          case 'duplicate':
            throw HttpError.conflict(ATTACHMENT_MESSAGES.duplicateFiles);
          case 'case_not_found':
            throw HttpError.notFound();
          case 'inserted':
            return toAttachment(result.row);
        }
      } catch (error) {
        await blobs.delete(blobKey);
        throw asUploadError(error);
      }
    },

    /**
     * DELETE cases/{id}/attachments/{attachmentId}: needs edit. Returns the blob keys that could
     * not be removed after the row went (for the log); the deletion itself stands.
     */
    async delete(caller: Caller, caseId: string, attachmentId: string): Promise<string[]> {
      await capabilities.requireCaseCapability(caller, caseId, 'canEdit');
      const released = isUuid(attachmentId) ? await attachments.delete(caseId, attachmentId) : null;
      if (released == null) throw HttpError.notFound();
      try {
        await blobs.deleteMany(released);
        return [];
      } catch {
        return released;
      }
    },
  };
}

export type AttachmentService = ReturnType<typeof createAttachmentService>;
