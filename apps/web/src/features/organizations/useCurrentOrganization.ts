import type { OrganizationSummary } from '@pathology/contract';
import { useLocalStorage } from '@mantine/hooks';
import { CURRENT_ORGANIZATION_STORAGE_KEY, pickCurrentOrganization } from './current-organization.ts';
import { useOrganizations } from './organizations.queries.ts';

export interface CurrentOrganization {
  organizations: ReturnType<typeof useOrganizations>;
  /** Undefined while the list loads, when it failed, or when the caller belongs to no group. */
  current: OrganizationSummary | undefined;
  select: (organizationId: string) => void;
}

/** The group the screens work in, shared by every component and tab through localStorage. */
export function useCurrentOrganization(): CurrentOrganization {
  const organizations = useOrganizations();
  const [storedId, setStoredId] = useLocalStorage<string | null>({
    key: CURRENT_ORGANIZATION_STORAGE_KEY,
    defaultValue: null,
    getInitialValueInEffect: false,
  });
  const current = organizations.data ? pickCurrentOrganization(organizations.data.data, storedId) : undefined;
  return { organizations, current, select: setStoredId };
}
