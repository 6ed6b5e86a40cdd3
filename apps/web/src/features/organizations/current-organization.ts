import type { OrganizationCapabilities } from '@pathology/contract';

/*
 * Rules of the current group (spec part 3 §2, §4): stored locally, else the first group by name,
 * preferring one where the user can work (create cases).
 */

/** localStorage key of the chosen group's id. */
export const CURRENT_ORGANIZATION_STORAGE_KEY = 'currentOrganizationId';

/** The group picker offers a search box only above this many groups (spec part 3 §9). */
export const PICKER_SEARCH_THRESHOLD = 5;

interface Named {
  id: string;
  name: string;
}

type Group = Named & { userCapabilities?: Pick<OrganizationCapabilities, 'canCreateCase'> };

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

export function compareByName(a: Named, b: Named): number {
  return collator.compare(a.name, b.name) || a.id.localeCompare(b.id);
}

/**
 * The stored group when the caller can still see it; otherwise (nothing stored, or the group is gone or belongs to
 * another account that used this browser) the first group by name where the caller can create cases, so a new user
 * does not land where "Upload Files" refuses them; failing that, the first by name. Undefined only when the list is
 * empty.
 */
export function pickCurrentOrganization<T extends Group>(
  organizations: readonly T[],
  storedId: string | null | undefined,
): T | undefined {
  const stored = storedId == null ? undefined : organizations.find((organization) => organization.id === storedId);
  const byName = [...organizations].sort(compareByName);
  return stored ?? byName.find((organization) => organization.userCapabilities?.canCreateCase === true) ?? byName[0];
}

export function isPickerSearchable(groupCount: number): boolean {
  return groupCount > PICKER_SEARCH_THRESHOLD;
}
