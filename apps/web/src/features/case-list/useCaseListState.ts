import { SCREEN_SETTING_DEFAULTS, type CaseSearchRequest } from '@pathology/contract';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useAccountRoles } from '../account/account.queries.ts';
import { useCurrentOrganization } from '../organizations/useCurrentOrganization.ts';
import {
  readListSearch,
  toSearchRequest,
  writeListSearch,
  type CaseListSearch,
} from '../case-navigation/list-search.ts';
import { useCaseListSetting, useSaveCaseListSetting, type CaseListSetting } from './case-list.queries.ts';
import { effectiveSearch } from './list-state.ts';

/**
 * The list's state: the search lives in the URL (part 1 §5), its page size and order default to the saved
 * `case_list` setting; the columns live in that setting only.
 */
export function useCaseListState() {
  const [params, setParams] = useSearchParams();
  const settingQuery = useCaseListSetting();
  const saveSetting = useSaveCaseListSetting();
  const roles = useAccountRoles();
  const { organizations, current, select } = useCurrentOrganization();

  const setting: CaseListSetting = settingQuery.data ?? SCREEN_SETTING_DEFAULTS.case_list;
  const search = useMemo(
    () => readListSearch(params, { limit: setting.pageSize, order: setting.order }),
    [params, setting.pageSize, setting.order],
  );
  const isSuperUser = roles.data?.checks.isSuperUser ?? false;
  const ready = !settingQuery.isPending && !roles.isPending && !organizations.isPending;
  const effective = useMemo(
    () => effectiveSearch(search, current?.id, isSuperUser),
    [search, current?.id, isSuperUser],
  );
  const request: CaseSearchRequest | undefined = ready ? toSearchRequest(effective) : undefined;

  const setSearch = useCallback(
    (change: Partial<CaseListSearch>, options: { replace?: boolean } = {}) => {
      // Any change other than the page itself starts again from the first page.
      const page = change.page ?? 1;
      setParams(writeListSearch({ ...search, ...change, page }), { replace: options.replace });
    },
    [search, setParams],
  );

  const updateSetting = useCallback(
    (change: Partial<CaseListSetting>) => saveSetting.mutate({ ...setting, ...change }),
    [saveSetting, setting],
  );

  return {
    search,
    effective,
    request,
    ready,
    setSearch,
    setting,
    updateSetting,
    isSuperUser,
    roles: roles.data?.checks,
    organizations: organizations.data?.data ?? [],
    current,
    selectCurrent: select,
  };
}

export type CaseListState = ReturnType<typeof useCaseListState>;
