import { QueryClient } from '@tanstack/react-query';
import { AuthError, HttpError, ValidationError } from '../api/client.ts';

const MAX_RETRIES = 2;

/** Statuses that may answer differently a moment later; any other 4xx is the request's own fault. */
const TRANSIENT_CLIENT_STATUSES = new Set([408, 425, 429]);

/**
 * Retrying cannot fix a lost session, a refusal or invalid input; everything else (network blips, timeouts, 5xx) gets
 * two more tries.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof AuthError || error instanceof ValidationError) return false;
  if (error instanceof HttpError && error.status < 500 && !TRANSIENT_CLIENT_STATUSES.has(error.status)) return false;
  return failureCount < MAX_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
