import { OrganizationListSchema, type OrganizationList } from '@pathology/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const organizationQueryKeys = {
  all: ['organizations'] as const,
  list: () => [...organizationQueryKeys.all, 'list'] as const,
};

/** GET organizations: the groups the caller may see (super users: all), sorted by name. */
export function fetchOrganizations(signal?: AbortSignal): Promise<OrganizationList> {
  return api.get('/organizations', { signal, schema: OrganizationListSchema });
}

export const organizationsQuery = () =>
  queryOptions({
    queryKey: organizationQueryKeys.list(),
    queryFn: ({ signal }) => fetchOrganizations(signal),
  });

export function useOrganizations() {
  return useQuery(organizationsQuery());
}
