import type { DetectionTileQuery } from '@pathology/contract';
import type { Path2D } from '@napi-rs/canvas';
import sharp from 'sharp';
import { skiaCanvas } from '../../on-first-use.ts';
import {
  cellSizeFor,
  densityPixels,
  MAX_VIEW_OBJECTS,
  OBJECT_SCALE,
  OUTLINE_SCALE,
  tileRegion,
  type Region,
} from './detection-grid.ts';
import { markPixels } from './detection-marks.ts';
import type { DetectionRepository } from './detection.repository.ts';

/** Objects per cell at which density is drawn at its full opacity. */
const DENSITY_FULL = 8;

interface TileLayer {
  id: string;
  width: number;
  height: number;
  /** Class index → `#rrggbb`. */
  colors: ReadonlyMap<number, string>;
}

type Ring = [number, number][];

interface TileArea {
  region: Region;
  scale: number;
  pixelWidth: number;
  pixelHeight: number;
}

/** Adds a GeoJSON Polygon's or MultiPolygon's rings to a path. */
function addOutline(path: Path2D, geometry: string): void {
  const parsed = JSON.parse(geometry) as { type: string; coordinates: unknown };
  const polygons = (parsed.type === 'Polygon' ? [parsed.coordinates] : parsed.coordinates) as Ring[][];
  for (const polygon of polygons) {
    for (const ring of polygon) {
      ring.forEach(([x, y], index) => (index === 0 ? path.moveTo(x, y) : path.lineTo(x, y)));
      path.closePath();
    }
  }
}

/**
 * Paints one path per class in image coordinates (the canvas maps the tile's region onto its pixels) and encodes
 * the PNG. Skia (through @napi-rs/canvas) fills thousands of outlines in milliseconds where rendering them as SVG took
 * hundreds; sharp encodes the PNG faster than the canvas does. Skia draws when the pixels are read, not as it is told.
 */
async function paintedTile(
  tile: TileArea,
  paths: ReadonlyMap<number, Path2D>,
  layer: TileLayer,
  query: DetectionTileQuery,
): Promise<Buffer> {
  const canvas = skiaCanvas().createCanvas(tile.pixelWidth, tile.pixelHeight);
  const context = canvas.getContext('2d');
  const { region, scale } = tile;
  context.setTransform(scale, 0, 0, scale, -region.x * scale, -region.y * scale);
  // One tile pixel: Skia draws such outlines as hairlines, several times faster than any wider stroke (a tile of
  // 5,000 outlines took 200 ms at 1.5 pixels, 20 at 1), and as thin as QuPath draws detections.
  context.lineWidth = 1 / scale;
  for (const [index, path] of paths) {
    const color = layer.colors.get(index) ?? '#888888';
    context.fillStyle = color;
    context.strokeStyle = color;
    context.globalAlpha = query.fill;
    context.fill(path, 'evenodd');
    context.globalAlpha = query.line;
    context.stroke(path);
  }
  // The canvas's own premultiplied pixels, which sharp takes as they are (getImageData would convert them first);
  // copied, as they live in the canvas, which may be collected while sharp still reads them on its thread.
  const raw = { width: tile.pixelWidth, height: tile.pixelHeight, channels: 4 as const, premultiplied: true };
  return sharp(Buffer.from(canvas.data()), { raw }).png({ compressionLevel: 3 }).toBuffer();
}

/** A path per class, filled by `add` for each of the rows. */
function pathsOf<T extends { classIndex: number }>(rows: readonly T[], add: (path: Path2D, row: T) => void) {
  const canvas = skiaCanvas();
  const paths = new Map<number, Path2D>();
  for (const row of rows) {
    let path = paths.get(row.classIndex);
    if (path === undefined) paths.set(row.classIndex, (path = new canvas.Path2D()));
    add(path, row);
  }
  return paths;
}

/** The objects' own outlines, for close views. */
async function outlineTile(
  repository: DetectionRepository,
  layer: TileLayer,
  tile: TileArea,
  hidden: readonly number[],
  query: DetectionTileQuery,
): Promise<Buffer> {
  const rows = await repository.outlinesIn(layer.id, tile.region, hidden);
  return paintedTile(
    tile,
    pathsOf(rows, (path, row) => addOutline(path, row.geometry)),
    layer,
    query,
  );
}

/** Each object as a small ellipse in its box, for middle views: only the boxes are read, no geometry is parsed. */
async function markTile(
  repository: DetectionRepository,
  layerId: string,
  tile: TileArea,
  hidden: readonly number[],
  colors: ReadonlyMap<number, string>,
  query: DetectionTileQuery,
): Promise<Buffer> {
  const boxes = await repository.boxesIn(layerId, tile.region, hidden);
  const pixels = markPixels(boxes, tile, colors, Math.max(query.fill, query.line));
  return sharp(pixels, { raw: { width: tile.pixelWidth, height: tile.pixelHeight, channels: 4 } })
    .png({ compressionLevel: 3 })
    .toBuffer();
}

async function densityTile(
  repository: DetectionRepository,
  layer: TileLayer,
  tile: TileArea,
  colors: ReadonlyMap<number, string>,
  query: DetectionTileQuery,
): Promise<Buffer> {
  const { region, scale } = tile;
  const cellSize = cellSizeFor(scale);
  const grid = {
    column: Math.floor(region.x / cellSize),
    row: Math.floor(region.y / cellSize),
    columns: Math.max(1, Math.ceil(region.width / cellSize)),
    rows: Math.max(1, Math.ceil(region.height / cellSize)),
  };
  const cells = await repository.cellsIn(layer.id, cellSize, region);
  const pixels = densityPixels(cells, grid, colors, Math.max(query.fill, query.line * 0.6), DENSITY_FULL);
  const cellPixels = cellSize * scale;
  return sharp(pixels, { raw: { width: grid.columns, height: grid.rows, channels: 4 } })
    .resize(Math.ceil(grid.columns * cellPixels), Math.ceil(grid.rows * cellPixels), { kernel: 'nearest' })
    .extract({ left: 0, top: 0, width: tile.pixelWidth, height: tile.pixelHeight })
    .png({ compressionLevel: 3 })
    .toBuffer();
}

/**
 * One PNG tile of a layer's detections, in OpenSeadragon's level numbering with 512-pixel tiles: the objects'
 * outlines close up, each object as a small ellipse in middle views, a density picture of the grid counts further out
 * or wherever a tile would hold too many objects (told by the grid counts, without touching the objects).
 * Undefined for a tile outside the image.
 */
export async function renderDetectionTile(
  repository: DetectionRepository,
  layer: TileLayer,
  at: { level: number; column: number; row: number },
  query: DetectionTileQuery,
): Promise<Buffer | undefined> {
  const tile = tileRegion(layer, at.level, at.column, at.row);
  if (tile === undefined) return undefined;
  const hidden = query.hide === '' ? [] : query.hide.split(',').map(Number);
  const colors = new Map([...layer.colors].filter(([index]) => !hidden.includes(index)));
  if (tile.scale >= OBJECT_SCALE && (await repository.estimateIn(layer.id, tile.region)) <= MAX_VIEW_OBJECTS) {
    return tile.scale >= OUTLINE_SCALE
      ? outlineTile(repository, layer, tile, hidden, query)
      : markTile(repository, layer.id, tile, hidden, colors, query);
  }
  return densityTile(repository, layer, tile, colors, query);
}
