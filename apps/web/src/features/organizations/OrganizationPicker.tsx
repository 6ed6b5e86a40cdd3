import { Select, Skeleton, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { IconUsersGroup } from '@tabler/icons-react';
import { isPickerSearchable } from './current-organization.ts';
import { useCurrentOrganization } from './useCurrentOrganization.ts';

const labelStyles = {
  label: { fontSize: 'var(--mantine-font-size-xs)', color: 'var(--mantine-color-dimmed)', marginBottom: 4 },
};

/** The current group, on top of the menu: every screen that works in one group reads it. */
export function OrganizationPicker() {
  const { t } = useTranslation();
  const { organizations, current, select } = useCurrentOrganization();

  // Spec part 3 §8: failing to fetch the groups is only logged here (the groups page shows the error).
  useEffect(() => {
    if (organizations.error) console.error('Unable to load the groups', organizations.error);
  }, [organizations.error]);

  if (organizations.isPending) return <Skeleton height={58} radius="md" />;
  const list = organizations.data?.data ?? [];
  if (organizations.isError && list.length === 0) {
    return (
      <Select
        label={t('organizations.picker.label')}
        data={[]}
        disabled
        placeholder={t('organizations.picker.unavailable')}
        leftSection={<IconUsersGroup size={16} />}
        styles={labelStyles}
        data-testid="organization-picker-unavailable"
      />
    );
  }
  if (list.length === 0) {
    return (
      <Text size="sm" c="dimmed" px="xs" data-testid="organization-picker-empty">
        {t('organizations.picker.none')}
      </Text>
    );
  }
  return (
    <Select
      label={t('organizations.picker.label')}
      data={list.map((organization) => ({ value: organization.id, label: organization.name }))}
      value={current?.id ?? null}
      onChange={(value) => {
        if (value) select(value);
      }}
      searchable={isPickerSearchable(list.length)}
      nothingFoundMessage={t('organizations.picker.nothingFound')}
      allowDeselect={false}
      checkIconPosition="right"
      leftSection={<IconUsersGroup size={16} />}
      comboboxProps={{ shadow: 'md' }}
      maxDropdownHeight={320}
      styles={{
        label: { fontSize: 'var(--mantine-font-size-xs)', color: 'var(--mantine-color-dimmed)', marginBottom: 4 },
      }}
      data-testid="organization-picker"
    />
  );
}
