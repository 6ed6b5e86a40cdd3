import {
  CaseGrantListSchema,
  CaseGrantSchema,
  CaseSchema,
  CaseSearchResponseSchema,
  CommentListSchema,
  CommentSchema,
  OrganizationListSchema,
  type Case,
  type CaseGrant,
  type CaseListItem,
  type LabelInput,
  type CaseGrantList,
  type CaseSearchRequest,
  type CaseSearchResponse,
  type Comment,
  type CommentList,
  type CreateCaseGrantRequest,
  type CreateCaseRequest,
  type GroupRole,
  type OrganizationList,
  type UpdateCaseRequest,
} from '@pathology/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { changeCaseLabel, type LabelAction } from '../../components/labels/index.ts';

export const caseDetailQueryKeys = {
  all: ['case-detail'] as const,
  case: (caseId: string) => [...caseDetailQueryKeys.all, 'case', caseId] as const,
  comments: (caseId: string) => [...caseDetailQueryKeys.case(caseId), 'comments'] as const,
  grants: (caseId: string) => [...caseDetailQueryKeys.case(caseId), 'grants'] as const,
  transferable: (caseId: string) => [...caseDetailQueryKeys.case(caseId), 'transferable'] as const,
  labels: (caseId: string) => [...caseDetailQueryKeys.case(caseId), 'labels'] as const,
  neighbours: (request: CaseSearchRequest) => [...caseDetailQueryKeys.all, 'neighbours', request] as const,
};

const casePath = (caseId: string) => `/cases/${encodeURIComponent(caseId)}`;

export const caseQuery = (caseId: string) =>
  queryOptions({
    queryKey: caseDetailQueryKeys.case(caseId),
    queryFn: ({ signal }) => api.get(casePath(caseId), { signal, schema: CaseSchema }),
  });

export function useCase(caseId: string) {
  return useQuery(caseQuery(caseId));
}

/** A page of the search the detail was opened from (page size 50), to find the neighbours of a position. */
export const neighbourPageQuery = (request: CaseSearchRequest) =>
  queryOptions({
    queryKey: caseDetailQueryKeys.neighbours(request),
    queryFn: ({ signal }): Promise<CaseSearchResponse> =>
      api.post('/cases/search', request, { signal, schema: CaseSearchResponseSchema, timeout: false }),
  });

/** The case as a list row (an id search): the only answer that carries its labels and its images' labels. */
export function useCaseLabels(caseId: string, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: caseDetailQueryKeys.labels(caseId),
      queryFn: async ({ signal }): Promise<CaseListItem | null> => {
        const request: CaseSearchRequest = {
          query: [{ field: 'id', operator: 'is', value: caseId }],
          page: 1,
          limit: 1,
        };
        const found = await api.post('/cases/search', request, {
          signal,
          schema: CaseSearchResponseSchema,
          timeout: false,
        });
        return found.data[0] ?? null;
      },
      enabled,
    }),
  );
}

export function useChangeCaseLabel(caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ label, action }: { label: LabelInput; action: LabelAction }) =>
      changeCaseLabel(caseId, label, action),
    onSettled: () => queryClient.invalidateQueries({ queryKey: caseDetailQueryKeys.labels(caseId) }),
  });
}

export function useComments(caseId: string) {
  return useQuery(
    queryOptions({
      queryKey: caseDetailQueryKeys.comments(caseId),
      queryFn: ({ signal }): Promise<CommentList> =>
        api.get(`${casePath(caseId)}/comments`, { signal, schema: CommentListSchema }),
    }),
  );
}

export function useGrants(caseId: string, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: caseDetailQueryKeys.grants(caseId),
      queryFn: ({ signal }): Promise<CaseGrantList> =>
        api.get(`${casePath(caseId)}/grants`, { signal, schema: CaseGrantListSchema }),
      enabled,
    }),
  );
}

/** POST organizations/transferable/{caseId}: where the case may go. Failures are only logged (spec part 3 §8). */
export function useTransferableOrganizations(caseId: string, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: caseDetailQueryKeys.transferable(caseId),
      queryFn: ({ signal }): Promise<OrganizationList> =>
        api.post(`/organizations/transferable/${encodeURIComponent(caseId)}`, undefined, {
          signal,
          schema: OrganizationListSchema,
        }),
      enabled,
    }),
  );
}

export function createCase(request: CreateCaseRequest): Promise<Case> {
  return api.post('/cases', request, { schema: CaseSchema });
}

export function useCreateCase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCase,
    onSuccess: (created) => queryClient.setQueryData(caseDetailQueryKeys.case(created.id), created),
  });
}

export function useUpdateCase(caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateCaseRequest) => api.patch(casePath(caseId), changes, { schema: CaseSchema }),
    onSuccess: (updated) => queryClient.setQueryData(caseDetailQueryKeys.case(caseId), updated),
  });
}

export function useDeleteCase(caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recursive: boolean) => api.delete(casePath(caseId), { query: { recursive: String(recursive) } }),
    // Stale but not refetched: the screen still shows the case while it leaves; a later visit finds it gone.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: caseDetailQueryKeys.case(caseId), refetchType: 'none' }),
  });
}

export function useTransferCase(caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (organizationId: string) =>
      api.put(`${casePath(caseId)}/transfer/${encodeURIComponent(organizationId)}`, undefined, { schema: CaseSchema }),
    onSuccess: async (moved) => {
      queryClient.setQueryData(caseDetailQueryKeys.case(caseId), moved);
      await queryClient.invalidateQueries({ queryKey: caseDetailQueryKeys.case(caseId) });
    },
  });
}

function useCommentMutation<V>(caseId: string, mutationFn: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      // The tab label counts comments, and the case carries numberOfComments.
      await queryClient.invalidateQueries({ queryKey: caseDetailQueryKeys.case(caseId) });
    },
  });
}

export function useAddComment(caseId: string) {
  return useCommentMutation(caseId, (body: string): Promise<Comment> =>
    api.post(`${casePath(caseId)}/comments`, { body }, { schema: CommentSchema }),
  );
}

export function useUpdateComment(caseId: string) {
  return useCommentMutation(caseId, ({ commentId, body }: { commentId: string; body: string }): Promise<Comment> =>
    api.patch(`${casePath(caseId)}/comments/${commentId}`, { body }, { schema: CommentSchema }),
  );
}

export function useDeleteComment(caseId: string) {
  return useCommentMutation(caseId, (commentId: string) => api.delete(`${casePath(caseId)}/comments/${commentId}`));
}

function useGrantMutation<V>(caseId: string, mutationFn: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: caseDetailQueryKeys.grants(caseId) }),
  });
}

export function useAddGrant(caseId: string) {
  return useGrantMutation(caseId, (request: CreateCaseGrantRequest): Promise<CaseGrant> =>
    api.post(`${casePath(caseId)}/grants`, request, { schema: CaseGrantSchema }),
  );
}

export function useUpdateGrant(caseId: string) {
  return useGrantMutation(
    caseId,
    ({ grantId, grantedRole }: { grantId: string; grantedRole: GroupRole }): Promise<CaseGrant> =>
      api.patch(`${casePath(caseId)}/grants/${grantId}`, { grantedRole }, { schema: CaseGrantSchema }),
  );
}

export function useDeleteGrant(caseId: string) {
  return useGrantMutation(caseId, (grantId: string) => api.delete(`${casePath(caseId)}/grants/${grantId}`));
}
