import {
  AiModelListSchema,
  BulkPredictionResponseSchema,
  PredictionSchema,
  type BulkPredictionRequest,
  type Prediction,
  type RequestPrediction,
} from '@pathology/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

const PROGRESS_POLL_MS = 3000;

export const predictionQueryKeys = {
  models: (imageId: string | null) => ['ai-models', imageId] as const,
  prediction: (id: string) => ['prediction', id] as const,
};

/** The model catalogue with what is installed on the server; with an image, the models that fit its organ. */
export function useAiModels(imageId: string | null = null) {
  return useQuery({
    queryKey: predictionQueryKeys.models(imageId),
    queryFn: async ({ signal }) => {
      const query = imageId ? `?imageId=${encodeURIComponent(imageId)}` : '';
      return (await api.get(`/predictions/models${query}`, { signal, schema: AiModelListSchema })).data;
    },
    staleTime: 60_000,
  });
}

export const inProgress = (prediction: Pick<Prediction, 'status'>) =>
  prediction.status === 'waiting' || prediction.status === 'running';

/** One prediction, asked again every few seconds while it waits or runs, so its progress moves. */
export function usePrediction(id: string | null) {
  return useQuery({
    queryKey: predictionQueryKeys.prediction(id ?? ''),
    queryFn: ({ signal }) => api.get(`/predictions/${encodeURIComponent(id!)}`, { signal, schema: PredictionSchema }),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && inProgress(query.state.data) ? PROGRESS_POLL_MS : false),
  });
}

export function requestPrediction(body: RequestPrediction): Promise<Prediction> {
  return api.post('/predictions/request', body, { schema: PredictionSchema });
}

export function requestPredictions(body: BulkPredictionRequest) {
  return api.post('/predictions/bulk/request', body, { schema: BulkPredictionResponseSchema });
}
