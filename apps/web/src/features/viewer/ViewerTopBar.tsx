import { ActionIcon, Anchor, Box, Button, Group, SegmentedControl, Text, Title, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconArrowLeft, IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { ViewerVersion } from './viewer-preferences.ts';

export interface NeighbourLinks {
  previous?: string;
  next?: string;
  position: number;
  total: number;
}

interface ViewerTopBarProps {
  backHref: string;
  title?: string;
  caseNumber?: string;
  neighbours?: NeighbourLinks;
  version: ViewerVersion;
  onVersion: (version: ViewerVersion) => void;
  /** More buttons after the title (the comparison's "Add slide to compare"). */
  actions?: ReactNode;
  /**
   * Given when the case or its image list failed every try: the bar says so with a Retry, as the case number and
   * the previous/next buttons would otherwise just stay away.
   */
  onRetry?: () => void;
}

/** Back to the case, the image's name, previous/next image of the case and the viewer version. */
export function ViewerTopBar(props: ViewerTopBarProps) {
  const { backHref, title, caseNumber, neighbours, version, onVersion, onRetry } = props;
  const { t } = useTranslation();
  return (
    <Group
      component="header"
      px="md"
      py={8}
      mih={53}
      gap="sm"
      justify="space-between"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)', flex: '0 0 auto' }}
    >
      <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
        <Button
          component={Link}
          to={backHref}
          variant="default"
          size="xs"
          leftSection={<IconArrowLeft size={15} />}
          style={{ flexShrink: 0 }}
          data-testid="viewer-back"
        >
          <Box component="span" visibleFrom="md">
            {t('viewer.back')}
          </Box>
          <Box component="span" hiddenFrom="md">
            {t('viewer.backShort')}
          </Box>
        </Button>
        {neighbours && (
          <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
            <NeighbourButton href={neighbours.previous} label={t('viewer.previous')} keyHint="←" direction="previous" />
            <Text size="xs" c="dimmed" miw={36} ta="center" data-testid="viewer-position">
              {t('viewer.position', { position: neighbours.position, total: neighbours.total })}
            </Text>
            <NeighbourButton href={neighbours.next} label={t('viewer.next')} keyHint="→" direction="next" />
          </Group>
        )}
      </Group>
      {/* On a narrow screen the name wraps below the buttons rather than shrinking to nothing. */}
      <Box style={{ minWidth: 0, flex: '1 1 140px' }}>
        <Title order={1} fz="md" lineClamp={1} title={title} data-testid="viewer-title">
          {title}
        </Title>
        {onRetry ? (
          <Group gap={6} wrap="nowrap" data-testid="viewer-case-error">
            <Text size="xs" c="red" lineClamp={1}>
              {t('viewer.caseLoadFailed')}
            </Text>
            <Anchor component="button" type="button" size="xs" onClick={onRetry}>
              {t('viewer.retry')}
            </Anchor>
          </Group>
        ) : (
          caseNumber && (
            <Text size="xs" c="dimmed" lineClamp={1} data-testid="viewer-case-number">
              {caseNumber}
            </Text>
          )
        )}
      </Box>
      {props.actions}
      <SegmentedControl
        size="xs"
        aria-label={t('viewer.version.label')}
        value={version}
        style={{ flexShrink: 0 }}
        onChange={(value) => onVersion(value === 'v1' ? 'v1' : 'v2')}
        data={[
          { value: 'v2', label: t('viewer.version.v2') },
          { value: 'v1', label: t('viewer.version.v1') },
        ]}
        data-testid="viewer-version"
      />
    </Group>
  );
}

interface NeighbourButtonProps {
  href: string | undefined;
  label: string;
  keyHint: string;
  direction: 'previous' | 'next';
}

function NeighbourButton({ href, label, keyHint, direction }: NeighbourButtonProps) {
  const icon = direction === 'previous' ? <IconChevronLeft size={18} /> : <IconChevronRight size={18} />;
  const common = { variant: 'default', size: 'md', 'aria-label': label, 'data-testid': `viewer-${direction}` } as const;
  return (
    <Tooltip label={`${label} (${keyHint})`} withArrow>
      {href ? (
        <ActionIcon component={Link} to={href} {...common}>
          {icon}
        </ActionIcon>
      ) : (
        <ActionIcon disabled {...common}>
          {icon}
        </ActionIcon>
      )}
    </Tooltip>
  );
}
