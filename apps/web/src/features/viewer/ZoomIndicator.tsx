import { Box, Paper, Text } from '@mantine/core';
import type { Image } from '@pathology/contract';
import type OpenSeadragon from 'openseadragon';
import { useTranslation } from 'react-i18next';
import { useImageZoom } from './useViewportState.ts';
import { zoomReadout } from './zoom-text.ts';

/**
 * The zoom text ('×10', '50%') and, for a valid resolution, a scale bar, at the bottom left of the slide. It follows
 * the viewer's zoom itself: only this small component renders again on every frame of a zoom, not the whole slide
 * view with its toolbar and layers (in a comparison of four panes those renders took more than the slides' drawing).
 */
export function ZoomIndicator({ viewer, image }: { viewer: OpenSeadragon.Viewer; image: Image }) {
  const { t } = useTranslation();
  const { text: zoomText, bar: scaleBar } = zoomReadout(image, useImageZoom(viewer));
  if (!zoomText && !scaleBar) return null;
  return (
    <Paper
      shadow="xs"
      radius="sm"
      px={10}
      py={6}
      pos="absolute"
      bottom={12}
      left={12}
      bg="rgba(255, 255, 255, 0.88)"
      style={{ pointerEvents: 'none', zIndex: 2 }}
      data-testid="zoom-indicator"
    >
      {zoomText && (
        <Text fw={700} size="md" lh={1.2} aria-label={`${t('viewer.zoom.label')} ${zoomText}`} data-testid="zoom-text">
          {zoomText}
        </Text>
      )}
      {scaleBar && (
        <Box mt={zoomText ? 4 : 0} aria-label={t('viewer.zoom.scaleBar', { length: scaleBar.label })}>
          <Text size="xs" lh={1.3} data-testid="scale-bar-label">
            {scaleBar.label}
          </Text>
          <Box
            data-testid="scale-bar"
            w={scaleBar.lengthPx}
            h={8}
            style={{
              borderLeft: '2px solid #212529',
              borderRight: '2px solid #212529',
              background: 'linear-gradient(#212529, #212529) center / 100% 4px no-repeat',
            }}
          />
        </Box>
      )}
    </Paper>
  );
}
