import { QueryClient } from '@tanstack/react-query';
import { AuthError, ValidationError } from '../api/client.ts';

const MAX_RETRIES = 2;

/** Retrying cannot fix a lost session or invalid input; everything else (network blips, 5xx) gets two more tries. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof AuthError || error instanceof ValidationError) return false;
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
