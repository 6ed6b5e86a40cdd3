import type OpenSeadragon from 'openseadragon';
import { applyColourToCanvas, getViewerColour } from '../viewer-colour/viewer-colour.ts';
import type { ScaleBar } from './scale-bar.ts';

export interface SnapshotOverlay {
  /** The zoom text ('×10', '50%'), when it is to be burnt in. */
  zoomText?: string;
  /** The scale bar at the current zoom, when it is to be burnt in. */
  scaleBar?: ScaleBar;
}

/** `<displayName>-snapshot.png`, without characters a file system refuses. */
export function snapshotFilename(displayName: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const safe = displayName.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim();
  return `${safe || 'image'}-snapshot.png`;
}

const MARGIN = 12;
const PADDING = 8;
const FONT = '600 15px system-ui, -apple-system, "Segoe UI", "Hiragino Sans", "Noto Sans JP", sans-serif';
const LABEL_FONT = '12px system-ui, -apple-system, "Segoe UI", "Hiragino Sans", "Noto Sans JP", sans-serif';

/** Draws the zoom text and the scale bar in a light box at the bottom left, like the on-screen indicator. */
function drawOverlay(context: CanvasRenderingContext2D, height: number, overlay: SnapshotOverlay): void {
  const { zoomText, scaleBar } = overlay;
  if (!zoomText && !scaleBar) return;
  context.font = FONT;
  const textWidth = zoomText ? context.measureText(zoomText).width : 0;
  context.font = LABEL_FONT;
  const labelWidth = scaleBar ? context.measureText(scaleBar.label).width : 0;
  const barBlock = scaleBar ? Math.max(scaleBar.lengthPx, labelWidth) : 0;
  const width = Math.max(textWidth, barBlock) + PADDING * 2;
  const boxHeight = PADDING * 2 + (zoomText ? 18 : 0) + (zoomText && scaleBar ? 6 : 0) + (scaleBar ? 26 : 0);
  const left = MARGIN;
  const top = height - MARGIN - boxHeight;

  context.fillStyle = 'rgba(255, 255, 255, 0.88)';
  context.beginPath();
  context.roundRect(left, top, width, boxHeight, 6);
  context.fill();

  context.fillStyle = '#212529';
  context.textBaseline = 'top';
  let y = top + PADDING;
  if (zoomText) {
    context.font = FONT;
    context.fillText(zoomText, left + PADDING, y);
    y += 18 + (scaleBar ? 6 : 0);
  }
  if (scaleBar) {
    context.font = LABEL_FONT;
    context.fillText(scaleBar.label, left + PADDING, y);
    const barY = y + 18;
    context.fillRect(left + PADDING, barY, scaleBar.lengthPx, 4);
    context.fillRect(left + PADDING, barY - 4, 2, 8);
    context.fillRect(left + PADDING + scaleBar.lengthPx - 2, barY - 4, 2, 8);
  }
}

/**
 * A PNG of what the viewer shows now: the drawn canvas with the colour adjustment baked in (the screen applies it as a
 * CSS filter, which the canvas pixels do not hold), the zoom text and the scale bar on top. The overlay is drawn in
 * CSS pixels, scaled to the canvas's device pixels. Tiles arrive as blobs over XHR, so the canvas is not tainted.
 */
export async function takeSnapshot(viewer: OpenSeadragon.Viewer, overlay: SnapshotOverlay): Promise<Blob> {
  const source = viewer.drawer.canvas;
  if (!(source instanceof HTMLCanvasElement) || source.width === 0) throw new Error('nothing to snapshot');
  const canvas = applyColourToCanvas(source, getViewerColour(viewer));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D canvas');
  const ratio = source.width / Math.max(1, source.clientWidth);
  // Slide areas outside the image are transparent on the canvas: give the picture the viewer's background.
  context.globalCompositeOperation = 'destination-over';
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.globalCompositeOperation = 'source-over';
  context.save();
  context.scale(ratio, ratio);
  drawOverlay(context, canvas.height / ratio, overlay);
  context.restore();
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG encoding failed'))), 'image/png');
  });
}
