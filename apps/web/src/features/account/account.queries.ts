import {
  AccountMenuSchema,
  AccountRolesSchema,
  AccountSchema,
  type Account,
  type AccountMenu,
  type AccountRoles,
  type UpdateAccountAttributesRequest,
  type UpdateAccountRequest,
} from '@pathology/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const accountQueryKeys = {
  all: ['account'] as const,
  me: () => [...accountQueryKeys.all, 'me'] as const,
  roles: () => [...accountQueryKeys.all, 'roles'] as const,
  menu: () => [...accountQueryKeys.all, 'menu'] as const,
};

/** The signed-in person does not change within a page's life; only a new sign-in (a new page) does. */
const SESSION_STALE_TIME = 5 * 60_000;

export function fetchAccount(signal?: AbortSignal): Promise<Account> {
  return api.get('/accounts/me', { signal, schema: AccountSchema });
}

export function fetchAccountRoles(signal?: AbortSignal): Promise<AccountRoles> {
  return api.get('/accounts/roles', { signal, schema: AccountRolesSchema });
}

export function fetchAccountMenu(signal?: AbortSignal): Promise<AccountMenu> {
  return api.get('/accounts/me/menu', { signal, schema: AccountMenuSchema });
}

export const accountQuery = () =>
  queryOptions({
    queryKey: accountQueryKeys.me(),
    queryFn: ({ signal }) => fetchAccount(signal),
    staleTime: SESSION_STALE_TIME,
  });

export const accountRolesQuery = () =>
  queryOptions({
    queryKey: accountQueryKeys.roles(),
    queryFn: ({ signal }) => fetchAccountRoles(signal),
    staleTime: SESSION_STALE_TIME,
  });

export const accountMenuQuery = () =>
  queryOptions({
    queryKey: accountQueryKeys.menu(),
    queryFn: ({ signal }) => fetchAccountMenu(signal),
    staleTime: SESSION_STALE_TIME,
    // Only logged on failure (spec part 1 §8): the default menu takes over, so one try is enough.
    retry: false,
  });

export function useAccount() {
  return useQuery(accountQuery());
}

export function useAccountRoles() {
  return useQuery(accountRolesQuery());
}

export function useAccountMenu() {
  return useQuery(accountMenuQuery());
}

/** Saving the account updates the cached one, so the header shows the new name or picture at once. */
function useSaveAccount<V>(mutationFn: (value: V) => Promise<Account>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (account) => client.setQueryData(accountQueryKeys.me(), account),
  });
}

export function useUpdateAccount() {
  return useSaveAccount((names: UpdateAccountRequest) =>
    api.post('/accounts/me/update', names, { schema: AccountSchema }),
  );
}

export function useUpdateAccountAttributes() {
  return useSaveAccount((attributes: UpdateAccountAttributesRequest) =>
    api.post('/accounts/update/attributes', attributes, { schema: AccountSchema }),
  );
}

export function useSetAvatar() {
  return useSaveAccount((file: File | null) =>
    file == null
      ? api.delete('/accounts/me/avatar', { schema: AccountSchema })
      : api.put('/accounts/me/avatar', file, { contentType: file.type, schema: AccountSchema }),
  );
}
