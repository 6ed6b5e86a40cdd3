import type { DetectionTileQuery } from '@pathology/contract';
import sharp from 'sharp';
import {
  cellSizeFor,
  densityPixels,
  MAX_VIEW_OBJECTS,
  OBJECT_SCALE,
  tileRegion,
  type Region,
} from './detection-grid.ts';
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

const round = (value: number) => Math.round(value * 10) / 10;

/** SVG path data of a GeoJSON Polygon or MultiPolygon. */
function pathOf(geometry: string): string {
  const parsed = JSON.parse(geometry) as { type: string; coordinates: unknown };
  const polygons = (parsed.type === 'Polygon' ? [parsed.coordinates] : parsed.coordinates) as Ring[][];
  let path = '';
  for (const polygon of polygons) {
    for (const ring of polygon) {
      path += `M${ring.map(([x, y]) => `${round(x)} ${round(y)}`).join('L')}Z`;
    }
  }
  return path;
}

/** The objects as SVG, one path per class, in image coordinates through the viewBox. */
function objectsSvg(
  rows: readonly { classIndex: number; geometry: string }[],
  layer: TileLayer,
  tile: { region: Region; scale: number; pixelWidth: number; pixelHeight: number },
  query: DetectionTileQuery,
): string {
  const paths = new Map<number, string[]>();
  for (const row of rows) {
    const list = paths.get(row.classIndex) ?? [];
    list.push(pathOf(row.geometry));
    paths.set(row.classIndex, list);
  }
  const { region, scale } = tile;
  const body = [...paths]
    .map(
      ([index, list]) =>
        `<path d="${list.join('')}" fill="${layer.colors.get(index) ?? '#888888'}" fill-opacity="${query.fill}" ` +
        `stroke="${layer.colors.get(index) ?? '#888888'}" stroke-opacity="${query.line}" ` +
        `stroke-width="${1.5 / scale}" fill-rule="evenodd"/>`,
    )
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${tile.pixelWidth}" height="${tile.pixelHeight}" ` +
    `viewBox="${region.x} ${region.y} ${tile.pixelWidth / scale} ${tile.pixelHeight / scale}">${body}</svg>`
  );
}

async function densityTile(
  repository: DetectionRepository,
  layer: TileLayer,
  tile: { region: Region; scale: number; pixelWidth: number; pixelHeight: number },
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
 * One PNG tile of a layer's detections, in OpenSeadragon's level numbering with 512-pixel tiles: the objects' outlines
 * and fills when seen closely, a density picture of the grid counts further out (or when a close view holds too many).
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
  if (
    tile.scale >= OBJECT_SCALE &&
    (await repository.countUpTo(layer.id, tile.region, MAX_VIEW_OBJECTS + 1)) <= MAX_VIEW_OBJECTS
  ) {
    const rows = await repository.objectsIn(layer.id, tile.region, hidden);
    if (rows.length === 0) {
      return sharp({
        create: {
          width: tile.pixelWidth,
          height: tile.pixelHeight,
          channels: 4,
          background: { r: 0, g: 0, b: 0, alpha: 0 },
        },
      })
        .png()
        .toBuffer();
    }
    return sharp(Buffer.from(objectsSvg(rows, layer, tile, query)))
      .png({ compressionLevel: 3 })
      .toBuffer();
  }
  return densityTile(repository, layer, tile, colors, query);
}
