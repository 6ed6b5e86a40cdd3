import fs from 'node:fs/promises';
import sharp from 'sharp';

const ASCII = 2;
const SHORT = 3;
const LONG = 4;

interface TinyTiff {
  width: number;
  height: number;
  tile: number;
  /** ImageDescription, e.g. an Aperio header so OpenSlide takes the file for a scanner slide. */
  description?: string;
}

/**
 * A classic TIFF of one page whose tiles are JPEGs of `tile`×`tile` px, written byte by byte so a
 * test can make shapes no encoder writes on its own (an image smaller than its one tile).
 */
export async function writeTinyTiledTiff(target: string, spec: TinyTiff): Promise<void> {
  const across = Math.ceil(spec.width / spec.tile);
  const down = Math.ceil(spec.height / spec.tile);
  const tiles = await Promise.all(
    Array.from({ length: across * down }, (_, index) =>
      sharp({
        create: { width: spec.tile, height: spec.tile, channels: 3, background: { r: 200, g: 90 + index, b: 140 } },
      })
        .jpeg({ quality: 90 })
        .toBuffer(),
    ),
  );
  const description = Buffer.from(`${spec.description ?? 'tiny test slide'}\0`, 'latin1');
  const entries: [tag: number, type: number, values: number[] | Buffer][] = [
    [256, LONG, [spec.width]],
    [257, LONG, [spec.height]],
    [258, SHORT, [8, 8, 8]],
    [259, SHORT, [7]],
    [262, SHORT, [2]],
    [270, ASCII, description],
    [277, SHORT, [3]],
    [284, SHORT, [1]],
    [322, LONG, [spec.tile]],
    [323, LONG, [spec.tile]],
    [324, LONG, []],
    [325, LONG, tiles.map((tile) => tile.length)],
  ];
  const ifdSize = 2 + entries.length * 12 + 4;
  const extraSize = (values: number[] | Buffer, type: number) => {
    const bytes = Buffer.isBuffer(values) ? values.length : values.length * (type === SHORT ? 2 : 4);
    return bytes > 4 ? bytes : 0;
  };
  let extraAt = 8 + ifdSize;
  const tileOffsetsAt = () => entries.findIndex(([tag]) => tag === 324);
  entries[tileOffsetsAt()]![2] = tiles.map(() => 0);
  const extras = entries.reduce((sum, [, type, values]) => sum + extraSize(values, type), 0);
  let tileAt = extraAt + extras;
  entries[tileOffsetsAt()]![2] = tiles.map((tile) => {
    const at = tileAt;
    tileAt += tile.length;
    return at;
  });

  const head = Buffer.alloc(8 + ifdSize + extras);
  head.write('II', 0, 'latin1');
  head.writeUInt16LE(42, 2);
  head.writeUInt32LE(8, 4);
  head.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, values], index) => {
    const at = 10 + index * 12;
    head.writeUInt16LE(tag, at);
    head.writeUInt16LE(type, at + 2);
    head.writeUInt32LE(Buffer.isBuffer(values) ? values.length : values.length, at + 4);
    const outOfLine = extraSize(values, type) > 0;
    let target = at + 8;
    if (outOfLine) {
      head.writeUInt32LE(extraAt, at + 8);
      target = extraAt;
      extraAt += extraSize(values, type);
    }
    if (Buffer.isBuffer(values)) values.copy(head, target);
    else
      values.forEach((value, i) =>
        type === SHORT ? head.writeUInt16LE(value, target + i * 2) : head.writeUInt32LE(value, target + i * 4),
      );
  });
  await fs.writeFile(target, Buffer.concat([head, ...tiles]));
}
