import { ImageSchema } from '@pathology/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { layerDrawingsQuery } from '../drawings/drawings.queries.ts';
import { IMAGE_POLL_INTERVAL_MS, isInProgress } from '../case-images/case-images.queries.ts';
import { initialLayer } from './layers.ts';

export const viewerQueryKeys = {
  all: ['viewer'] as const,
  image: (imageId: string) => [...viewerQueryKeys.all, 'image', imageId] as const,
};

/**
 * GET images/{id}; while the image is still being converted it is asked again every 5 s, so the viewer opens itself
 * (or, for a slide served from its original, its progress badge moves on and goes at the hand-over).
 */
export const viewerImageQuery = (imageId: string) =>
  queryOptions({
    queryKey: viewerQueryKeys.image(imageId),
    queryFn: async ({ signal, client }) => {
      const image = await api.get(`/images/${encodeURIComponent(imageId)}`, { signal, schema: ImageSchema });
      const layer = initialLayer(image.imageLayerResources);
      // The drawings are the page's largest answer: asked the moment their layer is known, not once the viewer has rendered.
      if (layer && image.viewable) void client.prefetchQuery(layerDrawingsQuery(image.id, layer.id));
      return image;
    },
    refetchInterval: (query) => (query.state.data && isInProgress(query.state.data) ? IMAGE_POLL_INTERVAL_MS : false),
  });

export function useViewerImage(imageId: string) {
  return useQuery(viewerImageQuery(imageId));
}
