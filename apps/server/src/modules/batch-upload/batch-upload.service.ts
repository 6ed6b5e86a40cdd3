import { BATCH_UPLOAD_MESSAGES, type BatchParseItem, type BatchParseRequestSchema } from '@pathology/contract';
import type { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { imageNameKey, type BatchUploadRepository } from './batch-upload.repository.ts';
import { caseNumberFromFilename } from '@pathology/contract';

type ParseInput = z.output<typeof BatchParseRequestSchema>;

interface Deps {
  repository: BatchUploadRepository;
  capabilities: Pick<CapabilitiesService, 'requireOrganizationCapability'>;
}

/** Bulk upload (part 1 §4–§5): which case of the group each file goes to, and which files would be duplicates. */
export function createBatchUploadService({ repository, capabilities }: Deps) {
  return {
    /**
     * POST batch/parse: needs case creation in the group (the bulk flow creates the missing cases).
     * One item per filename, in order; a name repeated in the request is flagged from its second time.
     */
    async parse(caller: Caller, input: ParseInput): Promise<BatchParseItem[]> {
      await capabilities.requireOrganizationCapability(caller, input.organizationId, 'canCreateCase');
      const parsed = input.filenames.map((filename) => ({ filename, caseNumber: caseNumberFromFilename(filename) }));
      const numbers = [...new Set(parsed.map((item) => item.caseNumber).filter((number) => number !== ''))];
      const caseIds = await repository.casesByNumber(input.organizationId, numbers);
      const existing = await repository.existingImageNames([...new Set(caseIds.values())], input.filenames);

      const seen = new Set<string>();
      return parsed.map(({ filename, caseNumber }): BatchParseItem => {
        const caseId = caseIds.get(caseNumber) ?? null;
        const repeated = seen.has(filename);
        seen.add(filename);
        const fileAlreadyExists = repeated || (caseId != null && existing.has(imageNameKey(caseId, filename)));
        const item: BatchParseItem = { filename, caseNumber, caseId, exists: caseId != null, fileAlreadyExists };
        if (fileAlreadyExists) item.error = BATCH_UPLOAD_MESSAGES.fileAlreadyExists;
        else if (caseNumber === '') item.error = BATCH_UPLOAD_MESSAGES.noCaseNumber;
        return item;
      });
    },
  };
}

export type BatchUploadService = ReturnType<typeof createBatchUploadService>;
