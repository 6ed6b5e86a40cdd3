import {
  AttachmentDetailSchema,
  AttachmentListSchema,
  type Attachment,
  type AttachmentDetail,
  type AttachmentList,
} from '@pathology/contract';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { caseDetailQueryKeys } from '../case-detail/case-detail.queries.ts';
import { caseListQueryKeys } from '../case-list/case-list.queries.ts';
import { fetchBinary, saveBlob } from '../case-images/fetch-binary.ts';

export const attachmentsQueryKeys = {
  all: ['attachments'] as const,
  list: (caseId: string) => [...attachmentsQueryKeys.all, 'case', caseId] as const,
  detail: (caseId: string, attachmentId: string) => [...attachmentsQueryKeys.list(caseId), attachmentId] as const,
  pdf: (caseId: string, attachmentId: string) => [...attachmentsQueryKeys.detail(caseId, attachmentId), 'pdf'] as const,
};

const attachmentsPath = (caseId: string) => `/cases/${encodeURIComponent(caseId)}/attachments`;
const attachmentPath = (caseId: string, attachmentId: string) =>
  `${attachmentsPath(caseId)}/${encodeURIComponent(attachmentId)}`;

export function useAttachments(caseId: string) {
  return useQuery(
    queryOptions({
      queryKey: attachmentsQueryKeys.list(caseId),
      queryFn: ({ signal }): Promise<AttachmentList> =>
        api.get(attachmentsPath(caseId), { signal, schema: AttachmentListSchema }),
    }),
  );
}

/** GET one attachment: its `url` is where the content is read (download and PDF preview, part 2 §7). */
export function getAttachment(caseId: string, attachmentId: string, signal?: AbortSignal): Promise<AttachmentDetail> {
  return api.get(attachmentPath(caseId, attachmentId), { signal, schema: AttachmentDetailSchema });
}

/** The bytes of a PDF for the preview, read inline with the bearer token. No time limit: a PDF can be large. */
export function usePdfBytes(caseId: string, attachmentId: string) {
  return useQuery(
    queryOptions({
      queryKey: attachmentsQueryKeys.pdf(caseId, attachmentId),
      queryFn: async ({ signal }) => {
        const detail = await getAttachment(caseId, attachmentId, signal);
        const blob = await fetchBinary(detail.url, { query: { disposition: 'inline' }, signal, timeout: false });
        return { detail, data: new Uint8Array(await blob.arrayBuffer()) };
      },
      // The bytes are handed to pdf.js; keep one copy per visit rather than refetching in the background.
      staleTime: Infinity,
      gcTime: 0,
      retry: false,
    }),
  );
}

/** Reads the file with the bearer token and saves it under its name. */
export async function downloadAttachment(caseId: string, attachment: Pick<Attachment, 'id' | 'filename'>) {
  const detail = await getAttachment(caseId, attachment.id);
  saveBlob(await fetchBinary(detail.url, { timeout: false }), attachment.filename);
}

/** The attachments changed: the case's count (info panel, tab) and the case list's counts follow. */
export function refreshAfterAttachmentChange(queryClient: QueryClient, caseId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: attachmentsQueryKeys.list(caseId), exact: true }),
    queryClient.invalidateQueries({ queryKey: caseDetailQueryKeys.case(caseId), exact: true }),
    queryClient.invalidateQueries({ queryKey: caseListQueryKeys.searches() }),
  ]);
}

/** Puts a just-uploaded attachment into the cached list (sorted by filename) before the reload confirms it. */
export function addToCachedList(queryClient: QueryClient, caseId: string, attachment: Attachment): void {
  queryClient.setQueryData<AttachmentList>(attachmentsQueryKeys.list(caseId), (list) =>
    list
      ? {
          ...list,
          attachments: [...list.attachments.filter((a) => a.id !== attachment.id), attachment].sort((a, b) =>
            a.filename.localeCompare(b.filename),
          ),
        }
      : list,
  );
}

export function useDeleteAttachment(caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (attachmentId: string) => api.delete(attachmentPath(caseId, attachmentId)),
    onSuccess: () => refreshAfterAttachmentChange(queryClient, caseId),
  });
}
