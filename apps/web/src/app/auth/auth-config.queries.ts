import { AuthConfigSchema, DEFAULT_MAX_CASE_IMAGES, type AuthConfig } from '@pathology/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const authQueryKeys = {
  all: ['auth'] as const,
  config: () => [...authQueryKeys.all, 'config'] as const,
};

/** GET auth/config (no token): which provider and client to sign in with, so a new provider needs no rebuild. */
export function fetchAuthConfig(signal?: AbortSignal): Promise<AuthConfig> {
  return api.get('/auth/config', { signal, schema: AuthConfigSchema });
}

export const authConfigQuery = () =>
  queryOptions({
    queryKey: authQueryKeys.config(),
    queryFn: ({ signal }) => fetchAuthConfig(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The operator's help pages (HELP_URL), or undefined: then the header offers no help link. */
export function useHelpUrl(): string | undefined {
  return useQuery(authConfigQuery()).data?.helpUrl;
}

/** The image count at which a case warns (the server's MAX_CASE_IMAGES); its default until the config is read. */
export function useMaxCaseImages(): number {
  return useQuery(authConfigQuery()).data?.maxCaseImages ?? DEFAULT_MAX_CASE_IMAGES;
}
