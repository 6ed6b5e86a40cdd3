import { sharp } from '../../imaging/sharp-setup.ts';
import { TILE_SIZE } from '../../imaging/pyramid.ts';
import type { ServedOriginal } from '../iiif/served-original.ts';
import type { TileCache } from '../iiif/tile-cache.ts';
import { finish, JPEG_QUALITY } from '../iiif/tile-render.ts';

/** Frames of one level, able to give them one at a time; their byte counts are known only for stored tiles. */
export interface LevelFrames {
  count: number;
  /** Each frame's byte count when known before any frame is read (stored tiles), else null (frames made on request). */
  lengths: number[] | null;
  read(index: number): Promise<Buffer>;
}

const FRAME_REQUEST = { rotation: 0, mirror: false, quality: 'default', format: 'jpg' } as const;

/**
 * A level of the pyramid to come, its 512-px frames cut from the original while the conversion runs: the same
 * grid the converted slide will have (the levels info.json gives), so a viewer keeps its frame numbers across the
 * hand-over. Edge frames are padded to the full frame, as TILED_FULL frames all have the instance's Rows × Columns.
 */
export function originalLevelFrames(served: ServedOriginal, level: number, tiles: TileCache): LevelFrames {
  const full = served.levels[0]!;
  const size = served.levels[level]!;
  const scale = 2 ** level;
  const columns = Math.ceil(size.width / TILE_SIZE);
  const rows = Math.ceil(size.height / TILE_SIZE);
  return {
    count: columns * rows,
    lengths: null,
    async read(index) {
      const left = (index % columns) * TILE_SIZE;
      const top = Math.floor(index / columns) * TILE_SIZE;
      const width = Math.min(TILE_SIZE, size.width - left);
      const height = Math.min(TILE_SIZE, size.height - top);
      const x = left * scale;
      const y = top * scale;
      const region = {
        x,
        y,
        width: Math.min(TILE_SIZE * scale, full.width - x),
        height: Math.min(TILE_SIZE * scale, full.height - y),
      };
      const { body } = await served.render({ ...FRAME_REQUEST, region, width, height }, tiles);
      if (width === TILE_SIZE && height === TILE_SIZE) return body;
      const padded = sharp(body).extend({
        right: TILE_SIZE - width,
        bottom: TILE_SIZE - height,
        background: { r: 255, g: 255, b: 255 },
      });
      return finish(padded, { ...FRAME_REQUEST, region, width: TILE_SIZE, height: TILE_SIZE }, JPEG_QUALITY).toBuffer();
    },
  };
}
