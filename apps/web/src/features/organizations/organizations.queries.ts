import {
  OrganizationGrantListSchema,
  OrganizationListSchema,
  PartnerListSchema,
  type GroupRole,
  OrganizationPurgeCheckSchema,
  OrganizationSchema,
  type CreateOrganizationRequest,
  type OrganizationList,
  type UpdateOrganizationRequest,
} from '@pathology/contract';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useMutationState,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
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

export const organizationDetailKey = (id: string) => [...organizationQueryKeys.all, 'detail', id] as const;

const deleteOrganizationKey = (id: string) => [...organizationQueryKeys.all, 'delete', id] as const;

/**
 * True while this group is being deleted here, and after. Its page stays mounted until the navigation away is drawn
 * (a mutation counts as pending until its onSuccess is over): its queries must not ask for the group again meanwhile,
 * which would only answer 404. A failed deletion lets them ask again.
 */
function useIsDeleted(id: string): boolean {
  const statuses = useMutationState({
    filters: { mutationKey: deleteOrganizationKey(id) },
    select: (mutation) => mutation.state.status,
  });
  return statuses.some((status) => status === 'pending' || status === 'success');
}

/** GET organizations/{id}: every field, storage use and what the caller may do. */
export function useOrganization(id: string) {
  const deleted = useIsDeleted(id);
  return useQuery({
    queryKey: organizationDetailKey(id),
    queryFn: ({ signal }) => api.get(`/organizations/${id}`, { signal, schema: OrganizationSchema }),
    enabled: !deleted,
  });
}

/** Saving or creating a group changes its card, its page and the pickers: all group queries refresh. */
function useRefreshGroups() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: organizationQueryKeys.all });
}

export function useUpdateOrganization(id: string) {
  const refresh = useRefreshGroups();
  return useMutation({
    mutationFn: (patch: UpdateOrganizationRequest) =>
      api.patch(`/organizations/${id}`, patch, { schema: OrganizationSchema }),
    onSuccess: refresh,
  });
}

export function useCreateOrganization() {
  const refresh = useRefreshGroups();
  return useMutation({
    mutationFn: (request: CreateOrganizationRequest) =>
      api.post('/organizations', request, { schema: OrganizationSchema }),
    onSuccess: refresh,
  });
}

export function useOrganizationPurgeCheck(id: string, enabled: boolean) {
  const deleted = useIsDeleted(id);
  return useQuery({
    queryKey: [...organizationDetailKey(id), 'purge-check'],
    queryFn: ({ signal }) =>
      api.get(`/organizations/lazy/${id}/purge-check`, { signal, schema: OrganizationPurgeCheckSchema }),
    enabled: enabled && !deleted,
    staleTime: 0,
  });
}

export function useDeleteOrganization(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: deleteOrganizationKey(id),
    mutationFn: () => api.delete(`/organizations/lazy/${id}`, { query: { recursive: true } }),
    onSuccess: async () => {
      await client.cancelQueries({ queryKey: organizationDetailKey(id) });
      client.removeQueries({ queryKey: organizationDetailKey(id) });
      await client.invalidateQueries({ queryKey: organizationQueryKeys.list() });
    },
  });
}

export function usePartners(id: string, page: number, enabled: boolean) {
  const deleted = useIsDeleted(id);
  return useQuery({
    queryKey: [...organizationDetailKey(id), 'partners', page],
    queryFn: ({ signal }) =>
      api.get(`/organizations/${id}/partners`, { signal, query: { page, limit: 10 }, schema: PartnerListSchema }),
    enabled: enabled && !deleted,
    placeholderData: keepPreviousData,
  });
}

export function useOrganizationGrants(id: string, enabled: boolean) {
  const deleted = useIsDeleted(id);
  return useQuery({
    queryKey: [...organizationDetailKey(id), 'grants'],
    queryFn: ({ signal }) => api.get(`/organizations/${id}/grants`, { signal, schema: OrganizationGrantListSchema }),
    enabled: enabled && !deleted,
  });
}

export function useUpdateOrganizationGrant(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ grantId, grantedRole }: { grantId: string; grantedRole: GroupRole }) =>
      api.patch(`/organizations/${id}/grants/${grantId}`, { grantedRole }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...organizationDetailKey(id), 'grants'] }),
  });
}
