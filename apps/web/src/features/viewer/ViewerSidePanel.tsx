import { Divider, Group, Kbd, ScrollArea, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { micronsPerImagePixel, type Image } from '@pathology/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format-date.ts';
import { ImageNotesPanel } from '../image-notes/ImageNotesPanel.tsx';
import { LayerPicker } from './LayerPicker.tsx';
import { useLocalPreference } from './useLocalPreference.ts';
import { effectiveMagnification } from './zoom-text.ts';

interface ViewerSidePanelProps {
  image: Image;
  /** The case lets the user read and write notes on its images. */
  canImageNote: boolean;
  layerId: string | undefined;
  onLayer: (layerId: string) => void;
  /** Whether the case lets the user take snapshots; undefined while the case loads. */
  snapshotDenied: boolean | undefined;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" ta="right" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6}>
      <Title order={2} fz="sm" tt="uppercase" c="dimmed" style={{ letterSpacing: '0.04em' }}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

const SHORTCUTS = [
  ['←  →', 'navigate'],
  ['+  -', 'zoom'],
  ['0', 'home'],
  ['R', 'rotate'],
  ['F', 'fullscreen'],
  ['S', 'snapshot'],
] as const;

/** The v2 viewer's side panel: image facts, layers, snapshot options and the keyboard shortcuts. */
export function ViewerSidePanel({ image, canImageNote, layerId, onLayer, snapshotDenied }: ViewerSidePanelProps) {
  const { t } = useTranslation();
  const [snapshot, setSnapshot] = useLocalPreference('snapshot');
  const none = t('viewer.info.none');
  const magnification = effectiveMagnification(image);
  const mpp = micronsPerImagePixel(image.resolution);
  const shortcuts = SHORTCUTS.filter(([, key]) => key !== 'snapshot' || snapshotDenied === false);

  return (
    <ScrollArea
      w={300}
      visibleFrom="lg"
      style={{ borderLeft: '1px solid var(--mantine-color-gray-3)', flex: '0 0 auto' }}
      data-testid="viewer-side-panel"
    >
      <Stack gap="lg" p="md">
        <Section title={t('viewer.info.title')}>
          <Row label={t('viewer.info.dimensions')}>
            {image.dimensions ? t('viewer.info.dimensionsValue', image.dimensions) : none}
          </Row>
          <Row label={t('viewer.info.magnification')}>
            {magnification === undefined
              ? none
              : t(image.magnification ? 'viewer.info.magnificationValue' : 'viewer.info.magnificationAssumed', {
                  value: magnification,
                })}
          </Row>
          <Row label={t('viewer.info.resolution')}>
            {mpp === undefined ? none : t('viewer.info.resolutionValue', { value: mpp.toFixed(3) })}
          </Row>
          <Row label={t('viewer.info.format')}>{image.format ?? none}</Row>
          <Row label={t('viewer.info.scanner')}>{image.scannedIn ?? none}</Row>
          <Row label={t('viewer.info.scannedAt')}>{formatDateTime(image.scannedAt) || none}</Row>
        </Section>
        <Divider />
        {canImageNote && (
          <>
            <Section title={t('imageNotes.title')}>
              <ImageNotesPanel imageId={image.id} />
            </Section>
            <Divider />
          </>
        )}
        <Section title={t('viewer.layers.title')}>
          <LayerPicker layers={image.imageLayerResources} value={layerId} onChange={onLayer} />
        </Section>
        <Divider />
        <Section title={t('viewer.snapshot.title')}>
          {snapshotDenied === undefined ? (
            // Neither the options nor a refusal until the case says which: a permitted user never reads "not allowed".
            <Stack gap={6} data-testid="snapshot-loading" aria-busy>
              <Skeleton height={20} />
              <Skeleton height={20} />
            </Stack>
          ) : snapshotDenied ? (
            <Text size="sm" c="dimmed" data-testid="snapshot-denied">
              {t('viewer.snapshot.denied')}
            </Text>
          ) : (
            <>
              <Switch
                label={t('viewer.snapshot.magnification')}
                checked={snapshot.magnification}
                onChange={(event) => setSnapshot({ ...snapshot, magnification: event.currentTarget.checked })}
                data-testid="snapshot-magnification"
              />
              <Switch
                label={t('viewer.snapshot.scale')}
                checked={snapshot.scale}
                onChange={(event) => setSnapshot({ ...snapshot, scale: event.currentTarget.checked })}
                data-testid="snapshot-scale"
              />
            </>
          )}
        </Section>
        <Divider />
        <Section title={t('viewer.shortcuts.title')}>
          {shortcuts.map(([keys, name]) => (
            <Group key={name} justify="space-between" gap="xs">
              <Text size="sm">{t(`viewer.shortcuts.${name}`)}</Text>
              <Group gap={4}>
                {keys.split('  ').map((key) => (
                  <Kbd key={key} size="xs">
                    {key}
                  </Kbd>
                ))}
              </Group>
            </Group>
          ))}
        </Section>
      </Stack>
    </ScrollArea>
  );
}
