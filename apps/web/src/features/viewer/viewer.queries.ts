import { ImageSchema } from '@pathology/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { IMAGE_POLL_INTERVAL_MS, isInProgress } from '../case-images/case-images.queries.ts';

export const viewerQueryKeys = {
  all: ['viewer'] as const,
  image: (imageId: string) => [...viewerQueryKeys.all, 'image', imageId] as const,
};

/** GET images/{id}; while the image is still being converted it is asked again every 5 s, so the viewer opens itself. */
export const viewerImageQuery = (imageId: string) =>
  queryOptions({
    queryKey: viewerQueryKeys.image(imageId),
    queryFn: ({ signal }) => api.get(`/images/${encodeURIComponent(imageId)}`, { signal, schema: ImageSchema }),
    refetchInterval: (query) => (query.state.data && isInProgress(query.state.data) ? IMAGE_POLL_INTERVAL_MS : false),
  });

export function useViewerImage(imageId: string) {
  return useQuery(viewerImageQuery(imageId));
}
