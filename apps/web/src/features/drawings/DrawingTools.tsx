import { Box, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { Case, Image } from '@pathology/contract';
import type OpenSeadragon from 'openseadragon';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text.ts';
import { useAccount } from '../account/account.queries.ts';
import { DrawingDetails } from './DrawingDetails.tsx';
import { DrawingToolbar } from './DrawingToolbar.tsx';
import { DrawingsGuard } from './UnsavedGuard.tsx';
import { useDrawingLayer } from './useDrawingLayer.ts';
import { useDetailsPlacement } from './useDetailsPlacement.ts';
import { useDrawingShortcuts } from './useDrawingShortcuts.ts';

interface DrawingToolsProps {
  viewer: OpenSeadragon.Viewer | null;
  ready: boolean;
  image: Image;
  layerId: string | undefined;
  caseItem: Case | undefined;
  /** A comparison pane: the toolbar in one row (see DrawingToolbar). */
  compact?: boolean;
}

/** Drawing on the open slide: the tools, the selected drawing's details, and the guard for unsaved work. */
export function DrawingTools({ viewer, ready, image, layerId, caseItem, compact = false }: DrawingToolsProps) {
  const { t } = useTranslation();
  const account = useAccount().data;
  const canCreate = caseItem?.userCapabilities.canCreateDrawing ?? false;
  const author = account && {
    accountId: account.id,
    name: account.displayName?.trim() || `${account.firstName} ${account.lastName}`.trim() || account.email,
  };
  const layer = useDrawingLayer({ viewer, ready, image, layerId, canCreate, author });
  useDrawingShortcuts(layer, canCreate);
  const toolbar = useRef<HTMLDivElement>(null);
  const details = useRef<HTMLDivElement>(null);
  useDetailsPlacement(viewer, layer.selected?.geometry, details, toolbar);

  return (
    <>
      {/* The tools sit at the top left, beside the viewer's own tools; the slide stays clickable around them. */}
      <Stack
        gap={8}
        pos="absolute"
        top={12}
        left={compact ? 52 : 64}
        right={compact ? 12 : 160}
        style={{ zIndex: 2, pointerEvents: 'none' }}
      >
        <Box ref={toolbar} style={{ alignSelf: 'flex-start', pointerEvents: 'none' }}>
          <DrawingToolbar
            layer={layer}
            canCreate={canCreate}
            canDownload={caseItem?.userCapabilities.canDownloadDrawings ?? false}
            imageId={image.id}
            compact={compact}
          />
        </Box>
      </Stack>
      {/* The selection's details follow the drawing, beside it, never where the next shape is drawn. */}
      {layer.selected && (
        <Box
          ref={details}
          pos="absolute"
          top={0}
          left={0}
          style={{ zIndex: 2, pointerEvents: 'none', visibility: 'hidden' }}
        >
          <DrawingDetails layer={layer} image={image} />
        </Box>
      )}
      {(layer.loading || layer.error != null) && (
        <Paper shadow="sm" radius="md" px="sm" py={6} pos="absolute" bottom={48} left={12} style={{ zIndex: 2 }}>
          {layer.loading ? (
            <Group gap="xs" data-testid="drawings-loading">
              <Loader size="xs" />
              <Text size="sm">{t('drawings.loading')}</Text>
            </Group>
          ) : (
            <Group gap="xs" data-testid="drawings-load-error">
              <Text size="sm" c="red">
                {t('drawings.loadFailed')}: {errorText(layer.error, t)}
              </Text>
              <Button size="compact-xs" variant="light" onClick={layer.retry}>
                {t('drawings.retry')}
              </Button>
            </Group>
          )}
        </Paper>
      )}
      <DrawingsGuard id={image.id} unsaved={layer.unsavedCount > 0 && !layer.preferences.autoSave} />
    </>
  );
}
