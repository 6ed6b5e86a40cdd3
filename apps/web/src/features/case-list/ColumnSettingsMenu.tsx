import { Button, Checkbox, Menu, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CaseListSetting } from './case-list.queries.ts';
import { IconColumns } from '@tabler/icons-react';

export const OPTIONAL_COLUMNS = ['group', 'tags', 'status', 'created'] as const;
export type OptionalColumn = (typeof OPTIONAL_COLUMNS)[number];

/** Optional table columns, saved with the `case_list` screen setting. */
export function ColumnSettingsMenu({
  setting,
  onChange,
}: {
  setting: CaseListSetting;
  onChange: (change: Partial<CaseListSetting>) => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu shadow="md" position="bottom-end" closeOnItemClick={false} withinPortal>
      <Menu.Target>
        <Button size="xs" variant="default" leftSection={<IconColumns size={15} />} data-testid="column-settings">
          {t('caseList.columns.settings')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown p="sm">
        <Text size="xs" c="dimmed" mb="xs">
          {t('caseList.columns.settingsHint')}
        </Text>
        <Stack gap={8}>
          {OPTIONAL_COLUMNS.map((column) => (
            <Checkbox
              key={column}
              size="xs"
              label={t(`caseList.columns.${column}`)}
              checked={setting[column]}
              onChange={(event) => onChange({ [column]: event.currentTarget.checked })}
              data-testid={`column-toggle-${column}`}
            />
          ))}
        </Stack>
      </Menu.Dropdown>
    </Menu>
  );
}
