import { Box, Drawer, Paper } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { Case, Image } from '@pathology/contract';
import type OpenSeadragon from 'openseadragon';
import { memo, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text.ts';
import { saveBlob } from '../case-images/fetch-binary.ts';
import { DetectionLayer } from '../detections/DetectionLayer.tsx';
import { DrawingTools } from '../drawings/DrawingTools.tsx';
import { PredictionLayer } from '../predictions/PredictionLayer.tsx';
import { ColourPanel } from '../viewer-colour/ColourPanel.tsx';
import { useSavedViewerColour } from '../viewer-colour/useColourEditor.ts';
import { initialLayer } from './layers.ts';
import { LayerPicker } from './LayerPicker.tsx';
import { currentImageZoom } from './osd-viewer.ts';
import { snapshotFilename, takeSnapshot } from './snapshot.ts';
import { useLocalPreference } from './useLocalPreference.ts';
import { useSlideViewer } from './useSlideViewer.ts';
import { useViewerShortcuts } from './useViewerShortcuts.ts';
import { ConversionBadge } from './ConversionBadge.tsx';
import { ViewerMessage } from './ViewerMessage.tsx';
import type { ViewerVersion } from './viewer-preferences.ts';
import { ViewerSidePanel } from './ViewerSidePanel.tsx';
import { ViewerToolbar } from './ViewerToolbar.tsx';
import { steppedImageZoom, zoomReadout } from './zoom-text.ts';
import { ZoomIndicator } from './ZoomIndicator.tsx';

interface SlideViewProps {
  image: Image;
  /** The image's case, for the snapshot right and the colour presets; undefined while it loads. */
  caseItem: Case | undefined;
  version: ViewerVersion;
  expanded: boolean;
  onToggleExpanded: () => void;
  onPrevious?: () => void;
  onNext?: () => void;
  backHref: string;
  /** The comparison view (issue 31): told the viewer once its slide is open, and keeps the keyboard to itself. */
  onReady?: (viewer: OpenSeadragon.Viewer | null) => void;
  shortcuts?: boolean;
  /** A comparison pane: smaller tools, the drawing toolbar in one row, the detections folded. */
  compact?: boolean;
}

/**
 * One available image: the slide with its tools and overlays, and in v2 the side panel. Keyed by image id. Memoised:
 * a comparison re-renders its panes whenever the leader comes to rest (the address bar follows), and four slide views
 * with their toolbars and layers rendered again in one task held the next frame for well over 100 ms.
 */
export const SlideView = memo(function SlideView(props: SlideViewProps) {
  const { image, caseItem, version, expanded } = props;
  const { t } = useTranslation();
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [layerId, setLayerId] = useState(() => initialLayer(image.imageLayerResources)?.id);
  const layer = image.imageLayerResources.find((candidate) => candidate.id === layerId);
  const { viewer, state, retry } = useSlideViewer(element, image.id, layer?.tileSource.url ?? undefined);
  const [snapshotOptions] = useLocalPreference('snapshot');
  const [colourOpen, colour] = useDisclosure(false);
  // The saved colour shows on the slide from the start, not only once the colour panel is opened.
  useSavedViewerColour(image.caseId, viewer);
  const [snapshotBusy, setSnapshotBusy] = useState(false);

  // Until the case says otherwise, snapshots are off: a denial must never flash a usable button.
  const snapshotDenied = caseItem?.userCapabilities.deniedScreenshot ?? true;
  const ready = state.status === 'ready' && viewer !== null;
  const { onReady } = props;
  useEffect(() => onReady?.(ready ? viewer : null), [onReady, ready, viewer]);

  const zoomStep = (direction: 'in' | 'out') => {
    // From where the view is going, not where its animation has got to: quick presses then land on steps.
    const target = ready ? currentImageZoom(viewer, true) : undefined;
    if (!ready || target === undefined) return;
    const { viewport } = viewer;
    viewport.zoomTo(viewport.getZoom() * (steppedImageZoom(target, direction) / target));
    viewport.applyConstraints();
  };
  const home = () => ready && viewer.viewport.goHome();
  const rotate = () => ready && viewer.viewport.rotateBy(90);

  const snapshot = async () => {
    if (!ready || snapshotDenied || snapshotBusy) return;
    setSnapshotBusy(true);
    try {
      const { text, bar } = zoomReadout(image, currentImageZoom(viewer));
      const blob = await takeSnapshot(viewer, {
        zoomText: snapshotOptions.magnification && text ? text : undefined,
        scaleBar: snapshotOptions.scale ? bar : undefined,
      });
      const filename = snapshotFilename(image.displayName);
      saveBlob(blob, filename);
      notifications.show({ color: 'teal', message: t('viewer.snapshot.saved', { filename }) });
    } catch (error) {
      notifications.show({ color: 'red', title: t('viewer.snapshot.failed'), message: errorText(error, t) });
    } finally {
      setSnapshotBusy(false);
    }
  };
  const onSnapshot = snapshotDenied ? undefined : () => void snapshot();

  useViewerShortcuts({
    previous: props.onPrevious,
    next: props.onNext,
    zoomIn: () => zoomStep('in'),
    zoomOut: () => zoomStep('out'),
    home,
    rotate,
    fullscreen: props.onToggleExpanded,
    snapshot: onSnapshot,
    enabled: props.shortcuts !== false,
  });

  return (
    <Box style={{ flex: 1, display: 'flex', minHeight: 0 }}>
      <Box pos="relative" style={{ flex: 1, minWidth: 0, background: 'var(--mantine-color-gray-1)' }}>
        <Box
          ref={setElement}
          pos="absolute"
          inset={0}
          data-testid="viewer-canvas"
          data-state={state.status}
          // Its size comes from outside: OpenSeadragon's per-frame writes (the navigator's box) and reads (sizes)
          // then lay out only the slide, not the page — four panes would otherwise lay out the page several times a frame.
          style={{ contain: 'strict' }}
          // Denied screenshots: no "Save image as…" from the canvas either.
          onContextMenu={snapshotDenied ? (event) => event.preventDefault() : undefined}
        />
        <ConversionBadge image={image} />
        {state.status === 'loading' && (
          <Box pos="absolute" inset={0} style={{ display: 'flex', pointerEvents: 'none' }}>
            <ViewerMessage loading title={t('viewer.loading')} testId="viewer-tiles-loading" />
          </Box>
        )}
        {state.status === 'error' && (
          <Box pos="absolute" inset={0} bg="var(--mantine-color-body)" style={{ display: 'flex', zIndex: 3 }}>
            <ViewerMessage
              title={t('viewer.tilesFailed')}
              description={errorText(state.error, t)}
              onRetry={retry}
              backHref={props.backHref}
              testId="viewer-tiles-error"
            />
          </Box>
        )}
        <ViewerToolbar
          disabled={!ready}
          expanded={expanded}
          onZoomIn={() => zoomStep('in')}
          onZoomOut={() => zoomStep('out')}
          onHome={home}
          onRotate={rotate}
          onFullscreen={props.onToggleExpanded}
          onSnapshot={onSnapshot}
          snapshotBusy={snapshotBusy}
          onColour={colour.toggle}
          colourOpen={colourOpen}
          compact={props.compact}
        />
        {image.imageLayerResources.length > 1 && (
          // v1 has no side panel; v2 shows this only where its side panel is hidden (narrow screens).
          <Paper
            shadow="sm"
            radius="md"
            p={6}
            pos="absolute"
            // A comparison pane's drawing toolbar takes the top row: the layers go below it.
            top={props.compact ? 56 : 12}
            right={12}
            style={{ zIndex: 2 }}
            hiddenFrom={version === 'v2' ? 'md' : undefined}
            data-testid="layer-picker-frame"
            data-viewer-panel
          >
            <LayerPicker compact layers={image.imageLayerResources} value={layerId} onChange={setLayerId} />
          </Paper>
        )}
        {ready && <ZoomIndicator viewer={viewer} image={image} />}
        <PredictionLayer viewer={viewer} ready={ready} image={image} caseItem={caseItem} />
        <DetectionLayer viewer={viewer} ready={ready} image={image} layerId={layerId} compact={props.compact} />
        <DrawingTools
          viewer={viewer}
          ready={ready}
          image={image}
          layerId={layerId}
          caseItem={caseItem}
          compact={props.compact}
        />
      </Box>
      {version === 'v2' && (
        <ViewerSidePanel
          image={image}
          canImageNote={caseItem?.userCapabilities.canImageNote ?? false}
          layerId={layerId}
          onLayer={setLayerId}
          snapshotDenied={caseItem?.userCapabilities.deniedScreenshot}
        />
      )}
      <Drawer
        opened={colourOpen}
        onClose={colour.close}
        position="right"
        size={360}
        withOverlay={false}
        closeOnClickOutside={false}
        title={t('viewer.colour.title')}
        data-testid="colour-drawer"
      >
        {caseItem && <ColourPanel caseId={caseItem.id} organizationId={caseItem.organizationId} viewer={viewer} />}
      </Drawer>
    </Box>
  );
});
