import { Button, CloseButton, Group, Menu, SimpleGrid, ActionIcon, Tooltip } from '@mantine/core';
import { LABEL_COLORS, PUBLIC_LABEL_ICONS, formatLabelName } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { LabelGlyph, LabelIcon } from '../../components/labels/label-icons.tsx';
import { useLabelText } from '../../components/labels/useLabelText.ts';

/** Filter by one public label (on the case or any of its images). */
export function PublicLabelFilter({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (v: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const labelText = useLabelText();
  return (
    <Group gap={0} wrap="nowrap">
      <Menu shadow="md" position="bottom-start" withinPortal>
        <Menu.Target>
          <Button
            size="xs"
            variant={value ? 'light' : 'default'}
            leftSection={value ? <LabelIcon labelName={value} size={15} /> : <LabelGlyph icon="Badge" size={15} />}
            aria-label={
              value ? `${t('caseList.filters.publicLabel')}: ${labelText(value)}` : t('caseList.filters.publicLabel')
            }
            data-testid="public-label-filter"
          >
            {t('caseList.filters.publicLabel')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown p="xs">
          <SimpleGrid cols={LABEL_COLORS.length} spacing={4} verticalSpacing={4}>
            {PUBLIC_LABEL_ICONS.flatMap((icon) =>
              LABEL_COLORS.map((color) => {
                const name = formatLabelName(icon, color);
                return (
                  <Tooltip key={name} label={labelText(name)} openDelay={300}>
                    <ActionIcon
                      variant={name === value ? 'light' : 'subtle'}
                      color={name === value ? 'violet' : 'gray'}
                      size="lg"
                      aria-label={labelText(name)}
                      aria-pressed={name === value}
                      onClick={() => onChange(name === value ? undefined : name)}
                    >
                      <LabelIcon labelName={name} size={18} />
                    </ActionIcon>
                  </Tooltip>
                );
              }),
            )}
          </SimpleGrid>
        </Menu.Dropdown>
      </Menu>
      {value && (
        <CloseButton
          size="sm"
          aria-label={t('caseList.filters.clearPublicLabel')}
          onClick={() => onChange(undefined)}
        />
      )}
    </Group>
  );
}
