import {
  InvitationSentSchema,
  MembershipListSchema,
  MembershipSchema,
  OutboxListSchema,
  type UpdateMembershipRequest,
  type InvitationRequest,
  type MembershipListQuery,
} from '@pathology/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../api/client.ts';

export const userQueryKeys = {
  all: ['memberships'] as const,
  list: (organizationId: string, query: MembershipListQuery) => [...userQueryKeys.all, organizationId, query] as const,
  outbox: () => ['outbox'] as const,
};

/** GET organizations/{id}/memberships: one page, sorted and filtered on the server. */
export function useMemberships(organizationId: string | undefined, query: MembershipListQuery) {
  return useQuery({
    queryKey: userQueryKeys.list(organizationId ?? '', query),
    queryFn: ({ signal }) =>
      api.get(`/organizations/${organizationId}/memberships`, {
        signal,
        query: { ...query },
        schema: MembershipListSchema,
      }),
    enabled: organizationId != null,
    placeholderData: keepPreviousData,
  });
}

function useRefreshMembers() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: userQueryKeys.all });
}

export function useInvite(organizationId: string) {
  const refresh = useRefreshMembers();
  return useMutation({
    mutationFn: ({ request, resend }: { request: InvitationRequest; resend: boolean }) =>
      api.post(`/organizations/${organizationId}/invitations${resend ? '/resend' : ''}`, request, {
        schema: InvitationSentSchema,
      }),
    onSuccess: refresh,
  });
}

/** PATCH a member's role or team. */
export function useUpdateMember(organizationId: string) {
  const refresh = useRefreshMembers();
  return useMutation({
    mutationFn: ({ email, changes }: { email: string; changes: UpdateMembershipRequest }) =>
      api.patch(`/organizations/${organizationId}/memberships/${encodeURIComponent(email)}`, changes, {
        schema: MembershipSchema,
      }),
    onSuccess: refresh,
  });
}

export function useRemoveMember(organizationId: string) {
  const refresh = useRefreshMembers();
  return useMutation({
    mutationFn: ({ email, purge }: { email: string; purge: boolean }) =>
      api.delete(`/organizations/${organizationId}/memberships/${encodeURIComponent(email)}`, {
        query: { purge },
        schema: z.object({ accountDeleted: z.boolean() }),
      }),
    onSuccess: refresh,
  });
}

/** GET outbox: the mails of an installation without SMTP (super users). */
export function useOutbox() {
  return useQuery({
    queryKey: userQueryKeys.outbox(),
    queryFn: ({ signal }) => api.get('/outbox', { signal, schema: OutboxListSchema }),
  });
}
