import { HealthSchema, type Health } from '@pathology/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { HttpError, api } from '../../api/client.ts';

export const systemQueryKeys = {
  all: ['system'] as const,
  health: () => [...systemQueryKeys.all, 'health'] as const,
};

/** GET /health. A degraded server answers 503 with the same report: that is a result to show, not a failure. */
export async function fetchHealth(signal?: AbortSignal): Promise<Health> {
  try {
    return await api.get('/health', { signal, schema: HealthSchema });
  } catch (error) {
    if (error instanceof HttpError && error.status === 503) {
      const report = HealthSchema.safeParse(error.body);
      if (report.success) return report.data;
    }
    throw error;
  }
}

const HEALTH_REFRESH_MS = 30_000;

export const healthQuery = () =>
  queryOptions({
    queryKey: systemQueryKeys.health(),
    queryFn: ({ signal }) => fetchHealth(signal),
    refetchInterval: HEALTH_REFRESH_MS,
  });

export function useHealth() {
  return useQuery(healthQuery());
}
