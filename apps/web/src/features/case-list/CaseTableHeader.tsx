import { Checkbox, Group, Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CaseListSearch } from '../case-navigation/list-search.ts';
import type { CaseListSetting } from './case-list.queries.ts';
import { CaseNumberFilter } from './CaseNumberFilter.tsx';
import { IconArrowDown, IconArrowUp, IconMessage, IconPaperclip, IconPhoto, IconSelector } from '@tabler/icons-react';

export interface CaseTableHeaderProps {
  search: CaseListSearch;
  setting: CaseListSetting;
  caseNumberFilter: string;
  onCaseNumberFilter: (text: string) => void;
  onSort: (field: 'caseNumber' | 'createdAt') => void;
  allSelected: boolean;
  someSelected: boolean;
  onSelectAll: (checked: boolean) => void;
}

function SortButton({
  field,
  label,
  search,
  onSort,
}: { field: 'caseNumber' | 'createdAt'; label: string } & Pick<CaseTableHeaderProps, 'search' | 'onSort'>) {
  const { t } = useTranslation();
  const active = search.order.field === field;
  const Arrow = !active ? IconSelector : search.order.direction === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <UnstyledButton
      onClick={() => onSort(field)}
      aria-label={t('caseList.sort.by', { column: label })}
      data-testid={`sort-${field}`}
      data-order={active ? search.order.direction : 'none'}
      style={{
        fontWeight: 600,
        fontSize: 'var(--mantine-font-size-xs)',
        display: 'inline-flex',
        alignItems: 'center',
        gap: 4,
      }}
    >
      {label}
      <Arrow size={13} color={active ? 'var(--mantine-color-violet-filled)' : 'var(--mantine-color-gray-5)'} />
      {active && (
        <VisuallyHidden>
          {t(`caseList.sort.${search.order.direction === 'asc' ? 'ascending' : 'descending'}`)}
        </VisuallyHidden>
      )}
    </UnstyledButton>
  );
}

/** Column headings: sortable case number (with its text filter) and created date, and the optional columns. */
export function CaseTableHeader(props: CaseTableHeaderProps) {
  const { t } = useTranslation();
  const { setting } = props;
  const th = { fontSize: 'var(--mantine-font-size-xs)', whiteSpace: 'nowrap' } as const;

  return (
    <Table.Thead>
      <Table.Tr>
        <Table.Th w={32} />
        <Table.Th w={32}>
          <Checkbox
            size="xs"
            aria-label={t('caseList.columns.selectAll')}
            checked={props.allSelected}
            indeterminate={props.someSelected && !props.allSelected}
            onChange={(event) => props.onSelectAll(event.currentTarget.checked)}
          />
        </Table.Th>
        <Table.Th style={th} w={60}>
          {t('caseList.columns.labels')}
        </Table.Th>
        <Table.Th style={th}>
          <Group gap="xs" wrap="nowrap">
            <SortButton field="caseNumber" label={t('caseList.columns.caseNumber')} {...props} />
            <CaseNumberFilter value={props.caseNumberFilter} onChange={props.onCaseNumberFilter} />
          </Group>
        </Table.Th>
        <Table.Th style={th}>
          <Group gap={6} wrap="nowrap" c="dimmed" title={t('caseList.columns.counts')}>
            <VisuallyHidden>{t('caseList.columns.counts')}</VisuallyHidden>
            <IconPhoto size={14} style={{ width: 34 }} />
            <IconPaperclip size={14} style={{ width: 34 }} />
            <IconMessage size={14} style={{ width: 34 }} />
          </Group>
        </Table.Th>
        {/* As narrow as its badges: most rows show one. */}
        <Table.Th style={{ ...th, width: '1%', whiteSpace: 'nowrap' }}>{t('caseList.columns.imageStatus')}</Table.Th>
        {setting.group && <Table.Th style={th}>{t('caseList.columns.group')}</Table.Th>}
        {setting.tags && <Table.Th style={th}>{t('caseList.columns.tags')}</Table.Th>}
        {setting.status && <Table.Th style={th}>{t('caseList.columns.status')}</Table.Th>}
        {setting.created && (
          <Table.Th style={th}>
            <SortButton field="createdAt" label={t('caseList.columns.created')} {...props} />
          </Table.Th>
        )}
      </Table.Tr>
    </Table.Thead>
  );
}

/** How many columns the table has, for the expanded image row's colSpan. */
export function columnCount(setting: CaseListSetting): number {
  return 6 + [setting.group, setting.tags, setting.status, setting.created].filter(Boolean).length;
}
