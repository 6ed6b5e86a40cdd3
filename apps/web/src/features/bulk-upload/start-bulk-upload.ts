import { caseCreator, createCaseRetrying } from '../uploads/case-creation.ts';
import type { UploadEngine } from '../uploads/upload-engine.ts';
import { uploadableFiles, type BulkState } from './bulk-upload.machine.ts';

/**
 * Queues the previewed files one at a time (part 1 §9). Missing cases are created right before their
 * first file, riding out a restarting server; when that fails, every file of the case number is marked upload_failed
 * with the error.
 */
export function startBulkUpload(
  engine: UploadEngine,
  state: BulkState,
  organizationId: string,
  create: (caseNumber: string, organizationId: string) => Promise<string> = createCaseRetrying,
): string[] {
  const createCase = caseCreator(organizationId, create);
  const files = uploadableFiles(state).filter((file) => file.parsed);
  const items = engine.enqueue(
    'bulk',
    files.map(({ file, parsed }) => ({
      caseId: parsed?.caseId ?? null,
      caseNumber: parsed?.caseNumber ?? '',
      filename: file.name,
      displayName: file.name,
      file,
    })),
    {
      resolveCase: async (item) => {
        try {
          return await createCase(item.caseNumber);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          for (const other of items) {
            if (other.id !== item.id && other.caseNumber === item.caseNumber) engine.fail(other.id, message);
          }
          throw error;
        }
      },
    },
  );
  return items.map((item) => item.id);
}
