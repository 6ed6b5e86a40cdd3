import {
  DrawingSchema,
  ScreenSettingItemSchema,
  SCREEN_SETTING_DEFAULTS,
  type CreateDrawingRequest,
  type Drawing,
  type DrawingList,
  type DrawingVisibilityFilter,
  type UpdateDrawingRequest,
} from '@pathology/contract';
import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { withLazyGeometry } from './lazy-geometry.ts';

export const drawingQueryKeys = {
  layer: (imageId: string, layerId: string) => ['drawings', imageId, layerId] as const,
  visibilitySetting: () => ['screen-settings', 'drawing_visibility'] as const,
};

const layerPath = (imageId: string, layerId: string) =>
  `/images/${encodeURIComponent(imageId)}/layers/${encodeURIComponent(layerId)}`;

/**
 * Every drawing of the layer the reader may see, in one streamed request. Not validated here: ten thousand
 * outlines of hundreds of points would take the schema seconds to walk, and the server wrote them from
 * validated input. The ALL/PRIVATE/PUBLIC filter is applied to this list ({@link matchesVisibility}), which
 * gives exactly the server's narrowed lists, so the request need not wait for the visibility setting.
 */
export const layerDrawingsQuery = (imageId: string, layerId: string) =>
  queryOptions({
    queryKey: drawingQueryKeys.layer(imageId, layerId),
    queryFn: async ({ signal }) => {
      const list = await api.get<DrawingList>(`${layerPath(imageId, layerId)}/visibility/ALL/drawings`, { signal });
      return list.data.map(withLazyGeometry);
    },
    staleTime: 30_000,
    // Comparing a new list with the old would read, and so decode, every drawing's points.
    structuralSharing: false,
  });

export function useLayerDrawings(imageId: string, layerId: string | undefined) {
  return useQuery({ ...layerDrawingsQuery(imageId, layerId ?? ''), enabled: layerId !== undefined });
}

/** The ALL/PRIVATE/PUBLIC filter of the viewer, as GET …/visibility/{filter}/drawings narrows on the server. */
export function matchesVisibility(drawing: Pick<Drawing, 'visibility'>, filter: DrawingVisibilityFilter): boolean {
  return filter === 'ALL' || drawing.visibility === filter.toLowerCase();
}

export function createDrawing(drawing: Drawing): Promise<Drawing> {
  const body: CreateDrawingRequest = {
    id: drawing.id,
    shapeType: drawing.shapeType,
    geometry: drawing.geometry,
    title: drawing.title,
    visibility: drawing.visibility,
    style: drawing.style,
  };
  return api.post(`${layerPath(drawing.imageId, drawing.imageLayerId)}/drawings`, body, { schema: DrawingSchema });
}

export function updateDrawing(drawing: Drawing, patch: UpdateDrawingRequest): Promise<Drawing> {
  const path = `${layerPath(drawing.imageId, drawing.imageLayerId)}/drawings/${encodeURIComponent(drawing.id)}`;
  return api.patch(path, patch, { schema: DrawingSchema });
}

export async function deleteDrawing(drawing: Drawing): Promise<void> {
  await api.delete(`${layerPath(drawing.imageId, drawing.imageLayerId)}/drawings/${encodeURIComponent(drawing.id)}`);
}

const FILTER_OF_SETTING = { all: 'ALL', mine: 'ALL', private: 'PRIVATE', public: 'PUBLIC' } as const;
const SETTING_OF_FILTER = { ALL: 'all', PRIVATE: 'private', PUBLIC: 'public' } as const;

/** The drawing_visibility screen setting (server-side, per user) as the viewer's filter; ALL when unset. */
export function useDrawingVisibilityFilter() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const setting = useQuery({
    queryKey: drawingQueryKeys.visibilitySetting(),
    queryFn: async ({ signal }): Promise<DrawingVisibilityFilter> => {
      const item = await api.get('/screen_settings/get/drawing_visibility', {
        signal,
        schema: ScreenSettingItemSchema,
      });
      const value = item.settingType === 'drawing_visibility' ? item.value : SCREEN_SETTING_DEFAULTS.drawing_visibility;
      return FILTER_OF_SETTING[value.visibility];
    },
    staleTime: Infinity,
    retry: false,
  });
  const save = useMutation({
    mutationFn: (filter: DrawingVisibilityFilter) =>
      api.post('/screen_settings/save', {
        items: [{ settingType: 'drawing_visibility', value: { visibility: SETTING_OF_FILTER[filter] } }],
      }),
    onMutate: (filter) => queryClient.setQueryData(drawingQueryKeys.visibilitySetting(), filter),
    onError: () => notifications.show({ color: 'red', message: t('drawings.visibility.settingFailed') }),
  });
  return {
    filter: setting.data,
    ready: !setting.isPending,
    setFilter: (filter: DrawingVisibilityFilter) => save.mutate(filter),
  };
}
