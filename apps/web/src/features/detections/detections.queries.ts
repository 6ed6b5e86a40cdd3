import {
  DetectionAtPointSchema,
  DetectionCountSchema,
  DetectionSummarySchema,
  type DetectionObject,
} from '@pathology/contract';
import { useQuery } from '@tanstack/react-query';
import { api, getAccessToken } from '../../api/client.ts';
import { toApiError } from '../../api/errors.ts';
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

/**
 * Sends a GeoJSON file as the raw body with XMLHttpRequest, whose upload events give a progress bar (the server
 * parses the file as it arrives, so the bytes sent are the import's progress). Resolves with the imported count;
 * rejects with the API's error (a 422 names the first bad feature).
 */
export async function importDetectionFile(
  imageId: string,
  layerId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<number> {
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
      if (request.status === 201) resolve((body as { count: number }).count);
      else reject(toApiError(request.status, body));
    };
    request.onerror = () => reject(new Error('network'));
    request.send(file);
  });
}
