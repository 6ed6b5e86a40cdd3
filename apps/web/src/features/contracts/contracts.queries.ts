import {
  ContractListSchema,
  ContractOrganizationListSchema,
  ContractSchema,
  InvitationSentSchema,
  type ContractInvitationRequest,
  type CreateContractRequest,
  type UpdateContractRequest,
} from '@pathology/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../api/client.ts';

export const contractQueryKeys = {
  all: ['contracts'] as const,
  list: () => [...contractQueryKeys.all, 'list'] as const,
  organizations: (id: string) => [...contractQueryKeys.all, id, 'organizations'] as const,
};

/** GET contracts: the caller's own (all for super users). */
export function useContracts(enabled = true) {
  return useQuery({
    queryKey: contractQueryKeys.list(),
    queryFn: ({ signal }) => api.get('/contracts', { signal, schema: ContractListSchema }),
    enabled,
  });
}

export function useContractOrganizations(id: string, enabled: boolean) {
  return useQuery({
    queryKey: contractQueryKeys.organizations(id),
    queryFn: ({ signal }) =>
      api.get(`/contracts/${id}/organizations`, { signal, schema: ContractOrganizationListSchema }),
    enabled,
  });
}

function useRefreshContracts() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: contractQueryKeys.all });
}

export function useSaveContract(id: string | null) {
  const refresh = useRefreshContracts();
  return useMutation({
    mutationFn: (request: CreateContractRequest | UpdateContractRequest) =>
      id == null
        ? api.post('/contracts', request, { schema: ContractSchema })
        : api.patch(`/contracts/${id}`, request, { schema: ContractSchema }),
    onSuccess: refresh,
  });
}

export function useDeleteContract() {
  const refresh = useRefreshContracts();
  return useMutation({ mutationFn: (id: string) => api.delete(`/contracts/${id}`), onSuccess: refresh });
}

export function useContractAuthentication(id: string) {
  const refresh = useRefreshContracts();
  return useMutation({
    mutationFn: (authenticated: boolean) =>
      authenticated
        ? api.post(`/contracts/${id}/authentications`, undefined, { schema: ContractSchema })
        : api.delete(`/contracts/${id}/authentications`, { schema: ContractSchema }),
    onSuccess: refresh,
  });
}

export function useInviteProprietor(id: string) {
  const refresh = useRefreshContracts();
  return useMutation({
    mutationFn: ({ request, resend }: { request: ContractInvitationRequest; resend: boolean }) =>
      api.post(`/contracts/${id}/invitations${resend ? '/resend' : ''}`, request, { schema: InvitationSentSchema }),
    onSuccess: refresh,
  });
}

export function useRemoveProprietor(id: string) {
  const refresh = useRefreshContracts();
  return useMutation({
    mutationFn: ({ email, purge }: { email: string; purge: boolean }) =>
      api.delete(`/contracts/${id}/proprietors/${encodeURIComponent(email)}`, {
        query: { purge },
        schema: z.object({ accountDeleted: z.boolean() }),
      }),
    onSuccess: refresh,
  });
}
