import { ActionIcon, Badge, Box, Group, NumberInput, Text, Tooltip } from '@mantine/core';
import type { Case, Image } from '@pathology/contract';
import type OpenSeadragon from 'openseadragon';
import { useTranslation } from 'react-i18next';
import { IconLink, IconLinkOff, IconRotate2, IconRotateClockwise2 } from '@tabler/icons-react';
import { LINK_KEY } from './compare-keys.ts';
import type { PaneView } from './linking.ts';
import { SlideView } from '../viewer/SlideView.tsx';
import { caseImagesPath } from '../viewer/viewer-paths.ts';
import { ViewerMessage } from '../viewer/ViewerMessage.tsx';

interface ComparePaneProps {
  index: number;
  image: Image;
  caseItem: Case | undefined;
  leading: boolean;
  locked: boolean;
  /** The pane's turn as shown, degrees. */
  rotation: number;
  /** Points of the saved alignment with the first slide, when there is one. */
  alignedPoints?: number;
  expanded: boolean;
  onToggleExpanded: () => void;
  onReady: (viewer: OpenSeadragon.Viewer | null) => void;
  onLock: () => void;
  onTurn: (degrees: number) => void;
  onTake: () => void;
  /** What the pane showed when the leader last came to rest. */
  rested?: PaneView;
  /** While aligning by points: a click on the slide's tools or panels, not on the slide itself. */
  onMissedClick?: () => void;
}

/** One slide of the comparison: its name, staining, link and turn controls, and the viewer itself. */
export function ComparePane(props: ComparePaneProps) {
  const { t } = useTranslation();
  const { image, index, leading, locked } = props;
  const number = index + 1;
  const rotation = Math.round(props.rotation * 10) / 10;
  return (
    <Box
      role="region"
      aria-label={t('compare.pane.label', { number, name: image.displayName })}
      data-testid={`compare-pane-${index}`}
      data-leading={leading}
      data-locked={locked}
      data-centre={props.rested?.centre.join(',')}
      data-zoom={props.rested?.zoom}
      onPointerDownCapture={props.onTake}
      onWheelCapture={props.onTake}
      style={{
        display: 'flex',
        flexDirection: 'column',
        minWidth: 0,
        minHeight: 0,
        // Whatever a pane holds stays in it: a long panel scrolls, it never reaches over the next pane.
        overflow: 'hidden',
        border: `2px solid ${leading ? 'var(--mantine-color-violet-6)' : 'var(--mantine-color-gray-3)'}`,
      }}
    >
      {/* The name has a row to itself: beside the controls it was cut in a third of a 1366-pixel screen. */}
      <Box px={8} py={4} style={{ flex: '0 0 auto' }} data-testid="compare-pane-header">
        <Group gap={6} wrap="nowrap">
          <Badge size="sm" variant={leading ? 'filled' : 'light'} color="violet" style={{ flexShrink: 0 }}>
            {number}
          </Badge>
          <Text
            size="sm"
            fw={600}
            lineClamp={1}
            title={image.displayName}
            style={{ minWidth: 0 }}
            data-testid="compare-pane-name"
          >
            {image.displayName}
          </Text>
          {leading && (
            <Badge size="xs" color="violet" variant="outline" style={{ flexShrink: 0 }}>
              {t('compare.pane.leading')}
            </Badge>
          )}
        </Group>
        <Group gap={6} wrap="nowrap" justify="space-between">
          <Text size="xs" c="dimmed" lineClamp={1} style={{ minWidth: 0 }} data-testid="compare-pane-stain">
            {image.staining ?? t('compare.pane.noStain')}
            {props.alignedPoints ? ` · ${t('compare.pane.aligned', { count: props.alignedPoints })}` : ''}
          </Text>
          <Group gap={2} wrap="nowrap" style={{ flexShrink: 0 }}>
            <Tooltip label={t('compare.pane.turnLeft')} withArrow>
              <ActionIcon
                variant="subtle"
                color="dark"
                aria-label={t('compare.pane.turnLeft')}
                onClick={() => props.onTurn(-90)}
                data-testid="compare-turn-left"
              >
                <IconRotate2 size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('compare.pane.turnRight')} withArrow>
              <ActionIcon
                variant="subtle"
                color="dark"
                aria-label={t('compare.pane.turnRight')}
                onClick={() => props.onTurn(90)}
                data-testid="compare-turn-right"
              >
                <IconRotateClockwise2 size={18} />
              </ActionIcon>
            </Tooltip>
            <NumberInput
              size="xs"
              w={76}
              aria-label={t('compare.pane.angle')}
              title={t('compare.pane.angle')}
              value={rotation}
              step={1}
              min={-180}
              max={180}
              suffix="°"
              onChange={(value) => {
                const next = typeof value === 'number' ? value : Number(value);
                if (Number.isFinite(next) && next !== rotation) props.onTurn(next - rotation);
              }}
              data-testid="compare-angle"
            />
            <Tooltip
              label={locked ? t('compare.pane.lock', { key: LINK_KEY }) : t('compare.pane.unlock', { key: LINK_KEY })}
              withArrow
            >
              <ActionIcon
                variant={locked ? 'light' : 'subtle'}
                color={locked ? 'violet' : 'gray'}
                aria-label={
                  locked ? t('compare.pane.lock', { key: LINK_KEY }) : t('compare.pane.unlock', { key: LINK_KEY })
                }
                aria-pressed={locked}
                aria-keyshortcuts={LINK_KEY}
                onClick={props.onLock}
                data-testid="compare-lock"
              >
                {locked ? <IconLink size={18} /> : <IconLinkOff size={18} />}
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      </Box>
      <Box
        style={{ flex: 1, display: 'flex', minHeight: 0 }}
        onClickCapture={(event) => {
          const target = event.target as Element;
          if (props.onMissedClick && !target.closest('.openseadragon-canvas')) props.onMissedClick();
        }}
      >
        {!image.viewable || image.imageLayerResources.length === 0 ? (
          <ViewerMessage
            title={t('viewer.notAvailable.title')}
            description={t('viewer.notAvailable.description', { status: t(`caseList.imageStatus.${image.status}`) })}
            testId="compare-pane-not-available"
          />
        ) : (
          <SlideView
            image={image}
            caseItem={props.caseItem}
            version="v1"
            expanded={props.expanded}
            onToggleExpanded={props.onToggleExpanded}
            backHref={caseImagesPath(image.caseId)}
            onReady={props.onReady}
            shortcuts={false}
            compact
          />
        )}
      </Box>
    </Box>
  );
}
