import { availableParallelism } from 'node:os';
import type { DetectionTileQuery } from '@pathology/contract';
import type { SharpOptions } from 'sharp';
import { sharp } from '../../imaging/sharp-setup.ts';
import { OverBudget, ThreadPool } from '../../thread-pool.ts';
import {
  cellSizeFor,
  densityPixels,
  drawsOutlines,
  MAX_VIEW_OBJECTS,
  OBJECT_SCALE,
  tileRegion,
  type Region,
} from './detection-grid.ts';
import { markPixels } from './detection-marks.ts';
import type { DetectionRepository } from './detection.repository.ts';
import type { OutlinePaint } from './outline-paint.ts';

/** Objects per cell at which density is drawn at its full opacity. */
const DENSITY_FULL = 8;

interface TileLayer {
  id: string;
  width: number;
  height: number;
  /** Class index → `#rrggbb`. */
  colors: ReadonlyMap<number, string>;
}

interface TileArea {
  region: Region;
  scale: number;
  pixelWidth: number;
  pixelHeight: number;
}

/**
 * Outlines are painted on worker threads (parsing and filling them held the event loop for up to a minute on one
 * tile); a tile not painted within this budget, or whose objects' geometry is larger than MAX_OUTLINE_BYTES as
 * stored, shows each object as a mark instead, which costs a few milliseconds whatever the objects are.
 */
const OUTLINE_BUDGET_MS = 5_000;
const MAX_OUTLINE_BYTES = 16 * 1024 * 1024;
/** A painter idle this long is stopped (a viewer reading the layer's detections starts one again). */
const IDLE_MS = 5 * 60_000;
/**
 * Painters at once, up to one per core: a view asks for its 6 or so tiles together, each ~30 ms of painting where
 * it is dense, and one painter made the last of them wait for all the others. The event loop waits on them only.
 */
const PAINTERS = Math.min(2, availableParallelism());

let painters: ThreadPool<OutlinePaint, Uint8Array> | undefined;
const outlinePainters = () =>
  (painters ??= new ThreadPool({ from: import.meta.url, name: 'outline-paint.worker' }, OUTLINE_BUDGET_MS, {
    size: PAINTERS,
    idleMs: IDLE_MS,
  }));

/**
 * Starts the outline painters ahead of the first tiles that need them: a viewer reads a layer's detections at a
 * glance just before it asks for their tiles, and a tile would otherwise wait for a thread to load its canvas library.
 */
export const warmOutlinePainters = (): void => outlinePainters().warm();

const png = (pixels: Uint8Array, raw: SharpOptions['raw']) =>
  sharp(Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength), { raw })
    .png({ compressionLevel: 3 })
    .toBuffer();

/** Bytes encoded between two turns of the event loop. */
const ENCODE_SLICE = 1 << 20;

/**
 * The classes' geometry texts as UTF-8 in one buffer, and where each text ends: a buffer is handed to the painting
 * thread as it is, where posting the texts themselves copied 16 MB in one go (40 ms and more of the event loop).
 * The loop gets a turn after each megabyte encoded.
 */
async function encodedTexts(classes: readonly string[][]): Promise<{ texts: Uint8Array; ends: number[][] }> {
  let total = 0;
  for (const geometries of classes) for (const geometry of geometries) total += Buffer.byteLength(geometry);
  const texts = Buffer.allocUnsafeSlow(total);
  const ends: number[][] = [];
  let at = 0;
  let sinceTurn = 0;
  for (const geometries of classes) {
    const classEnds: number[] = [];
    for (const geometry of geometries) {
      const written = texts.write(geometry, at);
      at += written;
      sinceTurn += written;
      classEnds.push(at);
      if (sinceTurn >= ENCODE_SLICE) {
        sinceTurn = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    ends.push(classEnds);
  }
  return { texts, ends };
}

/** The objects' own outlines, for close views; undefined when they are too many to paint (marks are drawn then). */
async function outlineTile(
  repository: DetectionRepository,
  layer: TileLayer,
  tile: TileArea,
  hidden: readonly number[],
  query: DetectionTileQuery,
): Promise<Buffer | undefined> {
  const rows = await repository.outlinesIn(layer.id, tile.region, hidden, MAX_OUTLINE_BYTES);
  if (rows === undefined) return undefined;
  const { region, scale, pixelWidth, pixelHeight } = tile;
  const raw = { width: pixelWidth, height: pixelHeight, channels: 4, premultiplied: true } as const;
  // Nothing to paint (no tissue there, or the layer has no detections yet): no painter is waited for.
  if (rows.length === 0) return png(new Uint8Array(pixelWidth * pixelHeight * 4), raw);
  const classes = new Map<number, string[]>();
  for (const row of rows) {
    const geometries = classes.get(row.classIndex);
    if (geometries === undefined) classes.set(row.classIndex, [row.geometry]);
    else geometries.push(row.geometry);
  }
  const { texts, ends } = await encodedTexts([...classes.values()]);
  const paint: OutlinePaint = {
    pixelWidth,
    pixelHeight,
    scale,
    x: region.x,
    y: region.y,
    fill: query.fill,
    line: query.line,
    texts,
    classes: [...classes.keys()].map((index, at) => ({ color: layer.colors.get(index) ?? '#888888', ends: ends[at]! })),
  };
  try {
    const pixels = await outlinePainters().run(paint, [texts.buffer as ArrayBuffer]);
    return await png(pixels, raw);
  } catch (error) {
    if (error instanceof OverBudget) return undefined;
    throw error;
  }
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
  const pixels = markPixels(boxes, tile, colors, query);
  return png(pixels, { width: tile.pixelWidth, height: tile.pixelHeight, channels: 4 });
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
 * outlines close up, each object as a small edged ellipse in middle views and where objects below full resolution
 * are too many to be more than specks (drawsOutlines), a density picture of the grid counts further out
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
  const estimate = tile.scale >= OBJECT_SCALE ? await repository.estimateIn(layer.id, tile.region) : Infinity;
  if (estimate <= MAX_VIEW_OBJECTS) {
    const outlines = drawsOutlines(tile.scale, estimate)
      ? await outlineTile(repository, layer, tile, hidden, query)
      : undefined;
    return outlines ?? markTile(repository, layer.id, tile, hidden, colors, query);
  }
  return densityTile(repository, layer, tile, colors, query);
}
