import { ActionIcon, Tooltip } from '@mantine/core';
import { PRIVATE_LABEL_COLOR } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { LabelGlyph } from './label-icons.tsx';

export interface StarToggleProps {
  active: boolean;
  onToggle: () => void;
  disabled?: boolean;
  loading?: boolean;
  size?: 'xs' | 'sm' | 'md';
}

/** The private label (personal yellow star) as a toggle button with aria-pressed. */
export function StarToggle({ active, onToggle, disabled = false, loading = false, size = 'sm' }: StarToggleProps) {
  const { t } = useTranslation();
  const label = active ? t('caseList.labels.unstar') : t('caseList.labels.star');
  return (
    <Tooltip label={label} openDelay={400} withinPortal>
      <ActionIcon
        variant="subtle"
        color={active ? 'yellow' : 'gray'}
        size={size}
        aria-label={label}
        aria-pressed={active}
        disabled={disabled}
        loading={loading}
        onClick={onToggle}
        data-testid="star-toggle"
      >
        <LabelGlyph
          icon="Star"
          size={size === 'xs' ? 14 : 17}
          filled={active}
          color={active ? PRIVATE_LABEL_COLOR : undefined}
          style={active ? { stroke: '#c9a400' } : undefined}
        />
      </ActionIcon>
    </Tooltip>
  );
}
