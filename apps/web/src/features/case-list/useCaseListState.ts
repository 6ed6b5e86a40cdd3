import { SCREEN_SETTING_DEFAULTS, type CaseSearchRequest } from '@pathology/contract';
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useAccountRoles } from '../account/account.queries.ts';
import { useCurrentOrganization } from '../organizations/useCurrentOrganization.ts';
import {
  readListSearch,
  toSearchRequest,
  writeListSearch,
  type CaseListSearch,
} from '../case-navigation/list-search.ts';
import { useLocalPreference } from '../viewer/useLocalPreference.ts';
import { useCaseListSetting, useSaveCaseListSetting, type CaseListSetting } from './case-list.queries.ts';
import { effectiveSearch } from './list-state.ts';

/**
 * The list's state: the search lives in the URL (part 1 §5), its page size and order default to the saved
 * `case_list` setting; the columns live in that setting only. The page size is also kept in this browser
 * (`casesPerPage`, part 1 §3): without a saved setting (none answered) the list still opens at the user's size.
 */
export function useCaseListState() {
  const [params, setParams] = useSearchParams();
  const settingQuery = useCaseListSetting();
  const saveSetting = useSaveCaseListSetting();
  const roles = useAccountRoles();
  const { organizations, current, select } = useCurrentOrganization();

  const [casesPerPage, setCasesPerPage] = useLocalPreference('casesPerPage');
  const saved = settingQuery.data;
  const setting: CaseListSetting = saved ?? { ...SCREEN_SETTING_DEFAULTS.case_list, pageSize: casesPerPage };
  // The saved setting wins (it follows the user to other browsers); this browser keeps a copy of its size.
  useEffect(() => {
    if (saved && saved.pageSize !== casesPerPage) setCasesPerPage(saved.pageSize);
  }, [saved, casesPerPage, setCasesPerPage]);
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
    (change: Partial<CaseListSetting>) => {
      if (change.pageSize !== undefined) setCasesPerPage(change.pageSize);
      saveSetting.mutate({ ...setting, ...change });
    },
    [saveSetting, setting, setCasesPerPage],
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
