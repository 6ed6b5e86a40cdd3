import { Button, Chip, Group, Select } from '@mantine/core';
import { PRIVATE_LABEL_COLOR } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { IconSearch, IconUsersGroup } from '@tabler/icons-react';
import { LabelGlyph } from '../../components/labels/label-icons.tsx';
import { isPickerSearchable } from '../organizations/current-organization.ts';
import { ColumnSettingsMenu } from './ColumnSettingsMenu.tsx';
import { organizationScope, withOrganization } from './list-state.ts';
import { PublicLabelFilter } from './PublicLabelFilter.tsx';
import type { CaseListState } from './useCaseListState.ts';

const ALL = 'all';

/** Group picker, label and visibility filters, column settings and the Search button. */
export function CaseListToolbar({ state, onOpenSearch }: { state: CaseListState; onOpenSearch: () => void }) {
  const { t } = useTranslation();
  const { search, effective, setSearch, organizations, isSuperUser } = state;
  const scope = organizationScope(effective.query);
  const value = scope.kind === 'one' ? scope.id : scope.kind === 'all' ? ALL : null;
  const data = [
    ...(isSuperUser ? [{ value: ALL, label: t('caseList.organization.all') }] : []),
    ...organizations.map((organization) => ({ value: organization.id, label: organization.name })),
  ];

  return (
    <Group gap="xs" wrap="wrap" data-testid="case-list-toolbar">
      <Select
        size="xs"
        w={240}
        aria-label={t('caseList.organization.label')}
        data={data}
        value={value}
        onChange={(next) => {
          if (!next) return;
          // Picking a group also makes it the current group, as the sidebar picker would.
          if (next !== ALL) state.selectCurrent(next);
          setSearch({ query: withOrganization(search.query, next) });
        }}
        allowDeselect={false}
        searchable={isPickerSearchable(data.length)}
        leftSection={<IconUsersGroup size={14} />}
        comboboxProps={{ shadow: 'md' }}
        data-testid="case-list-organization"
      />
      <Button
        size="xs"
        variant={search.starred ? 'light' : 'default'}
        color={search.starred ? 'yellow' : undefined}
        aria-pressed={search.starred}
        leftSection={
          <LabelGlyph
            icon="Star"
            size={15}
            filled={search.starred}
            color={search.starred ? PRIVATE_LABEL_COLOR : undefined}
          />
        }
        onClick={() => setSearch({ starred: !search.starred })}
        data-testid="starred-filter"
      >
        {t('caseList.filters.starred')}
      </Button>
      <PublicLabelFilter value={search.publicLabel} onChange={(publicLabel) => setSearch({ publicLabel })} />
      <Chip
        size="xs"
        checked={search.visibility === 'public'}
        onChange={(checked) => setSearch({ visibility: checked ? 'public' : 'all' })}
        data-testid="only-public-filter"
      >
        {t('caseList.filters.onlyPublic')}
      </Chip>
      <Group gap="xs" ml="auto">
        <ColumnSettingsMenu setting={state.setting} onChange={state.updateSetting} />
        <Button size="xs" leftSection={<IconSearch size={15} />} onClick={onOpenSearch} data-testid="open-search">
          {t('caseList.actions.search')}
        </Button>
      </Group>
    </Group>
  );
}
