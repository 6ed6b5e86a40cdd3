import { Badge, Button, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { caseListHref } from '../case-navigation/case-navigation.ts';
import { DEFAULT_LIST_SEARCH, type CaseListSearch } from '../case-navigation/list-search.ts';
import { IconFilter } from '@tabler/icons-react';
import { useOrganizations } from '../organizations/organizations.queries.ts';

/** The active filters' labels, as short chips (field names of the search, starred, public label, visibility). */
function useFilterChips(search: CaseListSearch): string[] {
  const { t } = useTranslation();
  const organizations = useOrganizations();
  // A group filter holds ids; people know groups by name.
  const groupName = (id: string) => organizations.data?.data.find((group) => group.id === id)?.name ?? '…';
  const chips = search.query
    .filter((expression) => expression.field !== 'id')
    .map((expression) => {
      const values = Array.isArray(expression.value) ? expression.value : [expression.value ?? ''];
      const shown = expression.field === 'organizationId' ? values.map(groupName) : values;
      const value = shown.filter((item) => item !== '').join(', ');
      const field = t(`caseDetail.searchFields.${expression.field}`);
      return value === '' ? field : `${field}: ${value}`;
    });
  if (search.starred) chips.push(t('caseDetail.search.starred'));
  if (search.publicLabel != null) chips.push(t('caseDetail.search.publicLabel'));
  if (search.visibility !== 'all') chips.push(t(`caseDetail.search.visibility.${search.visibility}`));
  return chips;
}

/** Shown when the case was opened from a filtered list: edit the search there, or drop the filters. */
export function FilteredSearchBar({ search }: { search: CaseListSearch }) {
  const { t } = useTranslation();
  const chips = useFilterChips(search);
  const reset: CaseListSearch = { ...DEFAULT_LIST_SEARCH, limit: search.limit, order: search.order };
  return (
    <Paper withBorder radius="md" px="md" py="xs" bg="violet.0" data-testid="case-search-bar">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="xs" wrap="wrap" miw={0}>
          <IconFilter size={16} color="var(--mantine-color-violet-6)" />
          <Text size="sm" fw={500}>
            {t('caseDetail.search.filtered')}
          </Text>
          {chips.map((chip) => (
            <Badge key={chip} variant="white" radius="sm" tt="none" fw={500} maw={260}>
              {chip}
            </Badge>
          ))}
        </Group>
        <Group gap="xs">
          <Button component={Link} to={caseListHref(search)} size="xs" variant="light" data-testid="case-search-edit">
            {t('caseDetail.search.edit')}
          </Button>
          <Button
            component={Link}
            to={caseListHref(reset)}
            size="xs"
            variant="subtle"
            color="gray"
            data-testid="case-search-reset"
          >
            {t('caseDetail.search.reset')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
