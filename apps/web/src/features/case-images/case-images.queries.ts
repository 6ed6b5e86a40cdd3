import {
  CaseSearchResponseSchema,
  ImageSchema,
  ImageSearchResponseSchema,
  type Image,
  type ImageSearchRequest,
  type ImageStatus,
} from '@pathology/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { caseDetailQueryKeys } from '../case-detail/case-detail.queries.ts';
import { caseListQueryKeys } from '../case-list/case-list.queries.ts';
import { fetchBinary, saveBlob } from './fetch-binary.ts';
import { forgetPictures } from './thumbnail-loader.ts';

export const caseImagesQueryKeys = {
  all: ['case-images'] as const,
  list: (caseId: string) => [...caseImagesQueryKeys.all, 'case', caseId] as const,
};

/** Statuses the server is still working on: the list polls until none is left. */
const IN_PROGRESS: readonly ImageStatus[] = ['reserved', 'uploaded', 'processing', 'deleting'];
export const IMAGE_POLL_INTERVAL_MS = 5_000;
/** Largest page POST images/search serves. */
const PAGE_SIZE = 500;

export function isInProgress(image: Pick<Image, 'status'>): boolean {
  return IN_PROGRESS.includes(image.status);
}

const imagePath = (imageId: string) => `/images/${encodeURIComponent(imageId)}`;

/** Every image of the case, by display name (the case_detail screen setting's default order, part 1 §3). */
async function searchCaseImages(caseId: string, signal: AbortSignal): Promise<Image[]> {
  const images: Image[] = [];
  for (let page = 1; ; page += 1) {
    const request: ImageSearchRequest = {
      query: [{ field: 'caseId', operator: 'is', value: caseId }],
      order: { field: 'displayName', direction: 'asc' },
      page,
      limit: PAGE_SIZE,
    };
    const found = await api.post('/images/search', request, { signal, schema: ImageSearchResponseSchema });
    images.push(...found.data);
    if (found.data.length < PAGE_SIZE || images.length >= found.total) return images;
  }
}

export const caseImagesQuery = (caseId: string) =>
  queryOptions({
    queryKey: caseImagesQueryKeys.list(caseId),
    queryFn: ({ signal }) => searchCaseImages(caseId, signal),
    // Uploaded and processing images turn available on the server: look again every 5 s until they have.
    refetchInterval: (query) => (query.state.data?.some(isInProgress) ? IMAGE_POLL_INTERVAL_MS : false),
  });

export function useCaseImages(caseId: string) {
  return useQuery(caseImagesQuery(caseId));
}

/** The images changed: the list, the case's image count and the case list's rows. */
function useRefreshAfterChange(caseId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: caseImagesQueryKeys.list(caseId) }),
      queryClient.invalidateQueries({ queryKey: caseDetailQueryKeys.case(caseId), exact: true }),
      queryClient.invalidateQueries({ queryKey: caseListQueryKeys.searches() }),
    ]);
}

export function useDeleteImage(caseId: string) {
  const refresh = useRefreshAfterChange(caseId);
  return useMutation({
    mutationFn: (imageId: string) => api.delete(imagePath(imageId)),
    onSuccess: async (_data, imageId) => {
      forgetPictures(imageId);
      await refresh();
    },
  });
}

export function useReprocessImage(caseId: string) {
  const refresh = useRefreshAfterChange(caseId);
  return useMutation({
    mutationFn: (imageId: string): Promise<Image> =>
      api.put(`${imagePath(imageId)}/reprocess`, undefined, { schema: ImageSchema }),
    onSuccess: async (_image, imageId) => {
      forgetPictures(imageId);
      await refresh();
    },
  });
}

/** GET images/{id}/cache/original: the uploaded file, saved under its filename. No time limit: slides are large. */
export async function downloadOriginal(image: Pick<Image, 'id' | 'filename'>): Promise<void> {
  const blob = await fetchBinary(`${imagePath(image.id)}/cache/original`, { timeout: false });
  saveBlob(blob, image.filename);
}

/**
 * The case's row of the case list, for its images' labels (stars and public labels with their ids). Kept
 * under the case list's searches, so a label toggled anywhere refreshes it.
 */
export function useCaseImageLabels(caseId: string) {
  return useQuery({
    queryKey: [...caseListQueryKeys.searches(), 'case-images', caseId],
    queryFn: async ({ signal }) => {
      const found = await api.post(
        '/cases/search',
        { query: [{ field: 'id', operator: 'is', value: caseId }], limit: 1 },
        { signal, schema: CaseSearchResponseSchema },
      );
      return new Map((found.data[0]?.images ?? []).map((image) => [image.id, image]));
    },
  });
}
