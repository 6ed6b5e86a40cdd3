/** The tabs of the case detail screen and the sub-paths that select them (spec part 1 §2). */
export const CASE_DETAIL_TABS = ['details', 'images', 'attachments', 'comments', 'permissions'] as const;
export type CaseDetailTab = (typeof CASE_DETAIL_TABS)[number];

export interface CaseDetailLocation {
  tab: CaseDetailTab;
  /** /edit: the Details tab with the edit form. */
  editing: boolean;
}

/** Reads the sub-path after /cases/{caseId}/ ('' , 'edit', 'images', ...); undefined for an unknown one. */
export function readCaseDetailPath(subPath: string | undefined): CaseDetailLocation | undefined {
  const segment = (subPath ?? '').replace(/\/+$/, '');
  if (segment === '' || segment === 'details') return { tab: 'details', editing: false };
  if (segment === 'edit') return { tab: 'details', editing: true };
  const tab = CASE_DETAIL_TABS.find((candidate) => candidate === segment);
  return tab ? { tab, editing: false } : undefined;
}

/** The sub-path of a tab ('' for Details, '/edit' for its form). */
export function caseDetailSubPath(tab: CaseDetailTab, editing = false): string {
  if (tab === 'details') return editing ? '/edit' : '';
  return `/${tab}`;
}
