import { ActionIcon, Group, Menu, SimpleGrid, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { LABEL_COLORS, PUBLIC_LABEL_ICONS, formatLabelName } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { LabelGlyph, LabelIcon } from './label-icons.tsx';
import { useLabelText } from './useLabelText.ts';

export interface PublicLabelPickerProps {
  /** How far each label name is set: 'all' shows it pressed, 'some' half-pressed; missing names are unset. */
  state: (labelName: string) => 'all' | 'some' | 'none';
  onToggle: (labelName: string) => void;
  disabled?: boolean;
  loading?: boolean;
  /** Labels drawn on the trigger; empty shows a neutral outline icon. */
  shown?: readonly string[];
  size?: 'xs' | 'sm';
}

/** A menu of the 6 public icons × 4 colours (part 1 §3); each is a toggle with aria-pressed. */
export function PublicLabelPicker({
  state,
  onToggle,
  disabled,
  loading,
  shown = [],
  size = 'sm',
}: PublicLabelPickerProps) {
  const { t } = useTranslation();
  const labelText = useLabelText();
  const title = t('caseList.labels.publicLabels');
  return (
    <Menu shadow="md" position="bottom-start" withinPortal closeOnItemClick={false}>
      <Menu.Target>
        <Tooltip label={title} openDelay={400}>
          <UnstyledButton
            aria-label={title}
            disabled={disabled || loading}
            data-testid="public-label-picker"
            style={{
              display: 'inline-flex',
              alignItems: 'center',
              gap: 2,
              minWidth: size === 'xs' ? 22 : 26,
              height: size === 'xs' ? 22 : 26,
              padding: '0 3px',
              borderRadius: 6,
              opacity: disabled ? 0.45 : 1,
              cursor: disabled ? 'not-allowed' : 'pointer',
            }}
            className="label-picker-trigger"
          >
            {shown.length === 0 ? (
              <LabelGlyph icon="Badge" size={16} color="var(--mantine-color-gray-5)" />
            ) : (
              shown.map((name) => <LabelIcon key={name} labelName={name} size={15} />)
            )}
          </UnstyledButton>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown p="xs">
        <Text size="xs" c="dimmed" mb={6}>
          {title}
        </Text>
        <SimpleGrid cols={LABEL_COLORS.length} spacing={4} verticalSpacing={4} role="group" aria-label={title}>
          {PUBLIC_LABEL_ICONS.flatMap((icon) =>
            LABEL_COLORS.map((color) => {
              const name = formatLabelName(icon, color);
              const current = state(name);
              return (
                <Tooltip key={name} label={labelText(name)} openDelay={300}>
                  <ActionIcon
                    variant={current === 'none' ? 'subtle' : 'light'}
                    color={current === 'all' ? 'violet' : 'gray'}
                    size="lg"
                    aria-label={labelText(name)}
                    aria-pressed={current === 'all' ? true : current === 'some' ? 'mixed' : false}
                    onClick={() => onToggle(name)}
                    data-testid={`public-label-option-${name}`}
                  >
                    <LabelIcon labelName={name} size={18} />
                  </ActionIcon>
                </Tooltip>
              );
            }),
          )}
        </SimpleGrid>
        <Group gap={6} mt={6}>
          <Text size="xs" c="dimmed">
            {t('caseList.labels.pickerHint')}
          </Text>
        </Group>
      </Menu.Dropdown>
    </Menu>
  );
}
