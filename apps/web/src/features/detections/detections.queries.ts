import {
  DetectionAtPointSchema,
  DetectionCountSchema,
  DetectionImportSchema,
  DetectionSummarySchema,
  type DetectionImport,
  type DetectionObject,
} from '@pathology/contract';
import { useQuery } from '@tanstack/react-query';
import { api, getAccessToken } from '../../api/client.ts';
import { toApiError } from '../../api/errors.ts';
import { shouldRetry } from '../../app/query-client.ts';
import { apiUrl } from '../case-images/fetch-binary.ts';

export const detectionQueryKeys = {
  layer: (imageId: string, layerId: string) => ['detections', imageId, layerId] as const,
  count: (imageId: string, layerId: string, drawingId: string, version: string) =>
    ['detections', imageId, layerId, 'count', drawingId, version] as const,
};

export const detectionsPath = (imageId: string, layerId: string) =>
  `/images/${encodeURIComponent(imageId)}/layers/${encodeURIComponent(layerId)}/detections`;

/** The layer's imports, classes and counts, and the caller's rights on them. */
export function useDetectionSummary(imageId: string, layerId: string | undefined) {
  return useQuery({
    queryKey: detectionQueryKeys.layer(imageId, layerId ?? ''),
    queryFn: ({ signal }) => api.get(detectionsPath(imageId, layerId!), { schema: DetectionSummarySchema, signal }),
    enabled: layerId !== undefined,
    // Without it the panel and the overlay are simply not shown, with no error to retry from: a failure that may pass
    // is tried again (react-query's waits grow to 30 s) until the server answers.
    retry: (_failures, error) => shouldRetry(0, error),
  });
}

/** Detections per class inside a drawing; `version` keeps the answer until the layer's detections change. */
export function useDrawingDetectionCount(imageId: string, layerId: string, drawingId: string, version: string) {
  return useQuery({
    queryKey: detectionQueryKeys.count(imageId, layerId, drawingId, version),
    queryFn: ({ signal }) =>
      api.get(
        `/images/${encodeURIComponent(imageId)}/layers/${encodeURIComponent(layerId)}/drawings/${encodeURIComponent(drawingId)}/detections`,
        { schema: DetectionCountSchema, signal },
      ),
  });
}

export async function detectionAt(
  imageId: string,
  layerId: string,
  x: number,
  y: number,
  signal: AbortSignal,
): Promise<DetectionObject | null> {
  const found = await api.get(`${detectionsPath(imageId, layerId)}/at`, {
    query: { x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 },
    schema: DetectionAtPointSchema,
    signal,
    background: true,
  });
  return found.data;
}

/** How often a running import's progress is read. */
const IMPORT_POLL_MS = 500;

/**
 * Uploads a GeoJSON file as the raw body with XMLHttpRequest, whose upload events give the first part of the
 * progress bar. Resolves with the queued import (202); rejects with the API's error (a 422 for a file refused at once:
 * too large, not a FeatureCollection).
 */
export async function uploadDetectionFile(
  imageId: string,
  layerId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<DetectionImport> {
  const token = await getAccessToken();
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', apiUrl(detectionsPath(imageId, layerId), { name: file.name }));
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.setRequestHeader('Content-Type', 'application/geo+json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let body: unknown = request.responseText;
      try {
        body = JSON.parse(request.responseText) as unknown;
      } catch {
        // A proxy's page: the status decides the message.
      }
      if (request.status === 202) resolve(DetectionImportSchema.parse(body));
      else reject(toApiError(request.status, body));
    };
    request.onerror = () => reject(new Error('network'));
    request.send(file);
  });
}

/** Reads an import's state every half second, telling each, until it has completed or failed; resolves with that. */
export async function watchDetectionImport(
  imageId: string,
  layerId: string,
  importId: string,
  onState: (state: DetectionImport) => void,
): Promise<DetectionImport> {
  for (;;) {
    const state = await api.get(`${detectionsPath(imageId, layerId)}/imports/${encodeURIComponent(importId)}`, {
      schema: DetectionImportSchema,
      background: true,
    });
    onState(state);
    if (state.status === 'completed' || state.status === 'failed') return state;
    await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS));
  }
}

/** Queues a failed import again from its stored file. */
export async function retryDetectionImport(imageId: string, layerId: string, importId: string) {
  return api.post(`${detectionsPath(imageId, layerId)}/imports/${encodeURIComponent(importId)}/retry`, undefined, {
    schema: DetectionImportSchema,
  });
}
