import { ActionIcon, Button, Group, HoverCard, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconArrowLeft, IconKeyboard, IconTarget } from '@tabler/icons-react';
import { LINK_KEY } from './compare-keys.ts';
import type { LinkMode } from './linking.ts';

interface CompareTopBarProps {
  backHref?: string;
  count: number;
  mode?: LinkMode;
  onMode?: (mode: LinkMode) => void;
  aligning?: boolean;
  onAlign?: () => void;
  /** Some slides have no resolution: absolute linking cannot be chosen. */
  absoluteOff?: boolean;
}

/** Back to the case, the title, the linking mode, point alignment and the keyboard help. */
export function CompareTopBar({ backHref, count, mode, onMode, aligning, onAlign, absoluteOff }: CompareTopBarProps) {
  const { t } = useTranslation();
  return (
    <Group
      component="header"
      data-testid="compare-top-bar"
      px="md"
      py={8}
      mih={53}
      gap="sm"
      // On a phone the controls go to a second row rather than over the title.
      wrap="wrap"
      justify="space-between"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)', flex: '0 0 auto', rowGap: 6 }}
    >
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        {backHref && (
          <>
            <Button
              component={Link}
              to={backHref}
              variant="default"
              size="xs"
              leftSection={<IconArrowLeft size={15} />}
              visibleFrom="md"
              data-testid="compare-back"
            >
              {t('compare.back')}
            </Button>
            <ActionIcon
              component={Link}
              to={backHref}
              variant="default"
              aria-label={t('compare.back')}
              hiddenFrom="md"
              data-testid="compare-back-icon"
            >
              <IconArrowLeft size={15} />
            </ActionIcon>
          </>
        )}
        <Title order={1} fz="md" lineClamp={1} data-testid="compare-title">
          {t('compare.title')} ({count})
        </Title>
      </Group>
      <Group gap="sm" wrap="nowrap" ml="auto" data-testid="compare-controls">
        {mode && onMode && (
          <Group gap={6} wrap="nowrap">
            <Text size="xs" c="dimmed" visibleFrom="md" id="compare-mode-label">
              {t('compare.mode.label')}
            </Text>
            <SegmentedControl
              size="xs"
              aria-labelledby="compare-mode-label"
              value={mode}
              onChange={(value) => onMode(value === 'relative' ? 'relative' : 'absolute')}
              data={[
                {
                  value: 'absolute',
                  label: (
                    <span title={t(absoluteOff ? 'compare.mode.absoluteOff' : 'compare.mode.absoluteHint')}>
                      {t('compare.mode.absolute')}
                    </span>
                  ),
                  disabled: absoluteOff,
                },
                {
                  value: 'relative',
                  label: <span title={t('compare.mode.relativeHint')}>{t('compare.mode.relative')}</span>,
                },
              ]}
              data-testid="compare-mode"
            />
          </Group>
        )}
        {onAlign && (
          <Button
            size="xs"
            variant={aligning ? 'filled' : 'default'}
            leftSection={<IconTarget size={15} />}
            onClick={onAlign}
            aria-pressed={aligning}
            data-testid="compare-align"
          >
            {t('compare.align.button')}
          </Button>
        )}
        <HoverCard position="bottom-end" withArrow>
          <HoverCard.Target>
            <ActionIcon variant="default" size="md" aria-label={t('compare.keys.title')} data-testid="compare-keys">
              <IconKeyboard size={16} />
            </ActionIcon>
          </HoverCard.Target>
          <HoverCard.Dropdown>
            <Stack gap={2}>
              <Text size="sm" fw={600}>
                {t('compare.keys.title')}
              </Text>
              {(['pan', 'zoom', 'lock', 'leader'] as const).map((key) => (
                <Text size="xs" key={key}>
                  {t(`compare.keys.${key}`, { key: LINK_KEY })}
                </Text>
              ))}
            </Stack>
          </HoverCard.Dropdown>
        </HoverCard>
      </Group>
    </Group>
  );
}
