import { Badge, Button, Group, Paper, Text } from '@mantine/core';
import { SPECIMEN_TYPES, type SpecimenType } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { LabelIcon } from '../../components/labels/label-icons.tsx';
import { useLabelText } from '../../components/labels/useLabelText.ts';
import { useCatalogueName } from '../../i18n/catalogue-names.ts';
import type { CaseListSearch } from '../case-navigation/list-search.ts';
import { filterChips, type FilterChip } from './list-state.ts';
import { IconFilter, IconPencil, IconX } from '@tabler/icons-react';

const isSpecimenType = (value: string): value is SpecimenType => (SPECIMEN_TYPES as readonly string[]).includes(value);

type FieldKey =
  | 'caseNumber'
  | 'diagnosis'
  | 'tags'
  | 'grossFindings'
  | 'microscopicFindings'
  | 'comments'
  | 'organ'
  | 'specimenType'
  | 'displayName'
  | 'imageTags';

function isFieldKey(field: string): field is FieldKey {
  return [
    'caseNumber',
    'diagnosis',
    'tags',
    'grossFindings',
    'microscopicFindings',
    'comments',
    'organ',
    'specimenType',
    'displayName',
    'imageTags',
  ].includes(field);
}

/** The active filters with Edit (reopens the dialog) and Reset (back to the plain list of the group). */
export function ActiveFilterBar({
  search,
  onEdit,
  onReset,
}: {
  search: CaseListSearch;
  onEdit: () => void;
  onReset: () => void;
}) {
  const { t } = useTranslation();
  const labelText = useLabelText();
  const catalogueName = useCatalogueName();
  const chips = filterChips(search);
  if (chips.length === 0) return null;

  // Catalogue values are searched by their stored identifiers and shown by their names.
  const valueText = (chip: Extract<FilterChip, { kind: 'field' }>): string => {
    if (chip.field === 'organ') return catalogueName('organs', chip.text);
    if (chip.field === 'modelName') return catalogueName('models', chip.text);
    if (chip.field === 'specimenType' && isSpecimenType(chip.text)) return t(`caseList.specimenTypes.${chip.text}`);
    return chip.text;
  };

  const chipText = (chip: FilterChip): string => {
    switch (chip.kind) {
      case 'field': {
        const name =
          chip.field === 'modelName'
            ? t('caseList.search.aiModel')
            : isFieldKey(chip.field)
              ? t(`caseList.search.${chip.field}`)
              : chip.field;
        const match = chip.match ? ` (${t(`caseList.filters.${chip.match}`)})` : '';
        return `${name}: ${valueText(chip)}${match}`;
      }
      case 'starred':
        return t('caseList.filters.starred');
      case 'publicLabel':
        return `${t('caseList.filters.publicLabel')}: ${labelText(chip.labelName)}`;
      case 'visibility':
        return `${t('caseList.filters.visibility')}: ${t(chip.visibility === 'public' ? 'caseList.search.visibilityPublic' : 'caseList.search.visibilityPrivate')}`;
    }
  };

  return (
    <Paper withBorder radius="md" px="sm" py={6} bg="var(--mantine-color-violet-light)" data-testid="active-filters">
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Group gap={6} wrap="wrap">
          <IconFilter size={15} color="var(--mantine-color-violet-filled)" />
          <Text size="xs" fw={600} c="violet">
            {t('caseList.filters.active')}
          </Text>
          {chips.map((chip, index) => (
            <Badge
              key={index}
              variant="white"
              color="dark"
              radius="sm"
              tt="none"
              fw={500}
              leftSection={chip.kind === 'publicLabel' ? <LabelIcon labelName={chip.labelName} size={12} /> : undefined}
              data-testid="active-filter"
            >
              {chipText(chip)}
            </Badge>
          ))}
        </Group>
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconPencil size={13} />}
            onClick={onEdit}
            data-testid="filters-edit"
          >
            {t('caseList.filters.edit')}
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            color="gray"
            leftSection={<IconX size={13} />}
            onClick={onReset}
            data-testid="filters-reset"
          >
            {t('caseList.filters.reset')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
