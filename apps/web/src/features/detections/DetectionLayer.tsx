import { Box } from '@mantine/core';
import type { DetectionObject, Image } from '@pathology/contract';
import { useQueryClient } from '@tanstack/react-query';
import OpenSeadragon from 'openseadragon';
import { useEffect, useMemo, useRef, useState } from 'react';
import { DetectionInfo } from './DetectionInfo.tsx';
import { DetectionPanel } from './DetectionPanel.tsx';
import { detectionTileSource, type DetectionStyle } from './detection-tiles.ts';
import { detectionAt, detectionQueryKeys, useDetectionSummary } from './detections.queries.ts';
import { useDetectionOverlay } from './useDetectionOverlay.ts';

/** Where the panel starts: below the drawing toolbar's rows; in a comparison pane also below the layer picker. */
const PANEL_TOP = 124;
const PANEL_TOP_COMPACT = 56;
const LAYER_PICKER_HEIGHT = 48;
/** In a comparison pane the panel stops above the zoom readout and the navigator at the slide's foot. */
const FOOT_COMPACT = 96;

/** The pointer rests this long before the object under it is asked for. */
const HOVER_DELAY_MS = 250;

interface DetectionLayerProps {
  viewer: OpenSeadragon.Viewer | null;
  ready: boolean;
  image: Image;
  layerId: string | undefined;
  /** A comparison pane: the panel starts folded, below the one-row drawing toolbar. */
  compact?: boolean;
}

/**
 * Read-only detections of image analysis over the slide: server-drawn tiles (outlines close up, density further out),
 * the panel of classes, and the class and measurements of the object under the pointer.
 */
export function DetectionLayer({ viewer, ready, image, layerId, compact = false }: DetectionLayerProps) {
  const queryClient = useQueryClient();
  const summary = useDetectionSummary(image.id, layerId).data;
  const layer = image.imageLayerResources.find((candidate) => candidate.id === layerId);
  const [style, setStyle] = useState<DetectionStyle>({ hidden: [], fill: 0.35, outline: 0.9 });
  const [info, setInfo] = useState<{ object: DetectionObject; at: { x: number; y: number } } | null>(null);
  // Read by the pointer handlers, which outlive a style change: an object of a hidden class is not shown.
  const hidden = useRef(style.hidden);
  hidden.current = style.hidden;
  const shown = summary !== undefined && summary.total > 0 && layer !== undefined && layerId !== undefined;

  const source = useMemo(
    () =>
      shown
        ? detectionTileSource(image.id, layerId, { width: layer.width, height: layer.height }, summary.version, style)
        : null,
    [shown, image.id, layerId, layer?.width, layer?.height, summary?.version, style],
  );
  useDetectionOverlay(viewer, ready, source);

  useEffect(() => {
    if (!viewer || !ready || !shown || layerId === undefined) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | undefined;
    const lookUp = (position: OpenSeadragon.Point) => {
      controller?.abort();
      const item = viewer.world.getItemAt(0);
      if (!item) return;
      const point = item.viewerElementToImageCoordinates(position);
      const asked = new AbortController();
      controller = asked;
      detectionAt(image.id, layerId, point.x, point.y, asked.signal)
        .then((object) =>
          setInfo(
            object && !hidden.current.includes(object.classIndex)
              ? { object, at: { x: position.x, y: position.y } }
              : null,
          ),
        )
        .catch(() => undefined);
    };
    const tracker = new OpenSeadragon.MouseTracker({
      element: viewer.canvas,
      moveHandler: (event) => {
        clearTimeout(timer);
        setInfo(null);
        const position = event.position;
        if (position) timer = setTimeout(() => lookUp(position), HOVER_DELAY_MS);
      },
      leaveHandler: () => {
        clearTimeout(timer);
        controller?.abort();
        setInfo(null);
      },
    });
    const onClick = (event: OpenSeadragon.CanvasClickEvent) => {
      if (event.quick) lookUp(event.position);
    };
    viewer.addHandler('canvas-click', onClick);
    return () => {
      clearTimeout(timer);
      controller?.abort();
      tracker.destroy();
      viewer.removeHandler('canvas-click', onClick);
      setInfo(null);
    };
  }, [viewer, ready, shown, image.id, layerId]);

  if (!summary || layerId === undefined || (summary.total === 0 && !summary.canImport)) return null;
  const top = compact
    ? PANEL_TOP_COMPACT + (image.imageLayerResources.length > 1 ? LAYER_PICKER_HEIGHT : 0)
    : PANEL_TOP;
  return (
    <>
      {/* Below the drawing toolbar (two rows across a narrow viewer, one in a comparison pane), and never taller than
          the slide: a long list scrolls inside it instead of reaching over the next pane. */}
      <Box
        pos="absolute"
        top={top}
        right={12}
        mah={`calc(100% - ${top + (compact ? FOOT_COMPACT : 12)}px)`}
        maw="calc(100% - 24px)"
        style={{ zIndex: 2, overflowY: 'auto', borderRadius: 'var(--mantine-radius-md)' }}
        data-testid="detection-panel-frame"
      >
        <DetectionPanel
          folded={compact}
          imageId={image.id}
          layerId={layerId}
          summary={summary}
          style={style}
          onStyle={setStyle}
          onChanged={() =>
            void queryClient.invalidateQueries({ queryKey: detectionQueryKeys.layer(image.id, layerId) })
          }
        />
      </Box>
      {info && (
        <DetectionInfo
          object={info.object}
          kind={summary.classes.find((item) => item.index === info.object.classIndex)}
          at={info.at}
        />
      )}
    </>
  );
}
