import fs from 'node:fs/promises';
import path from 'node:path';
import { writeJpegTiledTiff, type JpegTiledLevel, type TileColours } from './tiled-tiff-writer.ts';

/** Full-resolution tiles from elsewhere than dzsave (a DICOM's own frames), coded as `colours` says. */
export interface BaseTiles {
  colours?: TileColours;
  /** The tile at `index` (row by row) as it is to be stored, or null to keep dzsave's. */
  tile: (index: number) => Promise<Buffer | null>;
}

/**
 * libvips' dzsave with `--layout google` and `--depth onetile`: a folder `z/y/x.jpg` per level, z 0
 * the level that fits one tile, every tile full size (edges padded). Each level is the one above
 * halved and rounded up, so level k of a W×H image is ceil(W/2^k)×ceil(H/2^k).
 */
export const GOOGLE_LAYOUT_ARGS = ['--layout', 'google', '--overlap', '0', '--depth', 'onetile', '--skip-blanks', '-1'];

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The files of a dzsave Google-layout pyramid, by their paths in it (`3/0/1.jpg`, `vips-properties.xml`): in a folder,
 * or in the zip dzsave writes with `--container zip` (google-tiles-zip.ts).
 */
export interface GoogleTiles {
  /** The numbers of its zoom folders, in no order. */
  zooms(): Promise<number[]>;
  file(name: string): Promise<Buffer>;
  close(): Promise<void>;
}

/** A dzsave (or sharp `.tile()`) output folder. */
export function folderTiles(folder: string): GoogleTiles {
  return {
    zooms: async () =>
      (await fs.readdir(folder, { withFileTypes: true }))
        .filter((entry) => entry.isDirectory() && /^\d+$/.test(entry.name))
        .map((entry) => Number(entry.name)),
    file: (name) => fs.readFile(path.join(folder, name)),
    close: async () => undefined,
  };
}

/** The image size dzsave recorded in its vips-properties.xml. */
export async function googleTilesSize(tiles: GoogleTiles): Promise<ImageSize> {
  const xml = (await tiles.file('vips-properties.xml')).toString('utf8');
  const property = (name: string) => {
    const match = new RegExp(`<name>${name}</name>\\s*<value[^>]*>(\\d+)</value>`).exec(xml);
    if (match == null) throw new Error(`vips-properties.xml has no ${name}`);
    return Number(match[1]);
  };
  return { width: property('width'), height: property('height') };
}

// Tiles read ahead of the writer: one file at a time leaves the disk idle between small reads.
const READ_AHEAD = 16;

async function* levelTiles(
  tiles: GoogleTiles,
  zoom: number,
  across: number,
  down: number,
  replaced?: BaseTiles['tile'],
): AsyncGenerator<Buffer> {
  const files: string[] = [];
  for (let y = 0; y < down; y++) for (let x = 0; x < across; x++) files.push(`${zoom}/${y}/${x}.jpg`);
  const queue: Promise<Buffer>[] = [];
  let next = 0;
  const readNext = () => {
    const index = next++;
    const file = files[index]!;
    const read = replaced ? replaced(index).then((tile) => tile ?? tiles.file(file)) : tiles.file(file);
    // A read failing while earlier tiles are still being written is reported when its turn comes.
    read.catch(() => undefined);
    queue.push(read);
  };
  while (next < files.length && queue.length < READ_AHEAD) readNext();
  while (queue.length > 0) {
    const tile = await queue.shift()!;
    if (next < files.length) readNext();
    yield tile;
  }
}

/** One level of a Google-layout pyramid: its zoom folder's number and its size, full resolution first. */
export interface GoogleLevel {
  zoom: number;
  width: number;
  height: number;
}

/**
 * The levels of a dzsave Google-layout pyramid of a `size` image, checked: zoom folders 0…n, the
 * smallest fitting one tile.
 */
export async function googleLevels(tiles: GoogleTiles, size: ImageSize, tileSize: number): Promise<GoogleLevel[]> {
  const zooms = (await tiles.zooms()).sort((a, b) => b - a);
  if (zooms.length === 0 || zooms.some((zoom, index) => zoom !== zooms.length - 1 - index)) {
    throw new Error('the tiles do not hold zoom levels 0…n');
  }
  const levels = zooms.map((zoom, k) => ({
    zoom,
    width: Math.ceil(size.width / 2 ** k),
    height: Math.ceil(size.height / 2 ** k),
  }));
  const smallest = levels.at(-1)!;
  if (smallest.width > tileSize || smallest.height > tileSize) {
    throw new Error(`the smallest level ${smallest.width}×${smallest.height} is larger than one tile`);
  }
  return levels;
}

/**
 * Packs a dzsave Google-layout pyramid into one JPEG-tiled BigTIFF, full resolution first. The tiles
 * are copied byte for byte: what the tile server sends is what libjpeg wrote, or what `base` gives.
 */
export async function googleTilesToTiff(
  tiles: GoogleTiles,
  size: ImageSize,
  tileSize: number,
  target: string,
  base?: BaseTiles,
) {
  const levels: JpegTiledLevel[] = (await googleLevels(tiles, size, tileSize)).map((level, index) => {
    const ours = index === 0 ? base : undefined;
    const across = Math.ceil(level.width / tileSize);
    const down = Math.ceil(level.height / tileSize);
    return {
      width: level.width,
      height: level.height,
      tiles: levelTiles(tiles, level.zoom, across, down, ours?.tile),
      ...(ours?.colours ? { colours: ours.colours } : {}),
    };
  });
  await writeJpegTiledTiff(target, tileSize, levels);
}
