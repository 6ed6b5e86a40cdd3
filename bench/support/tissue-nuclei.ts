import { execFile } from 'node:child_process';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import sharp from 'sharp';
import {
  nucleusAt,
  nucleusFeature,
  nucleusLayout,
  type NucleusLayout,
} from '../../apps/server/test/synthetic-detections.ts';

const run$ = promisify(execFile);

/** Side of the thumbnail the tissue is found on, in pixels. */
const THUMBNAIL_SIDE = 1024;
/** Grey level under which a thumbnail pixel is tissue rather than bright glass (0–255). */
const GLASS_GREY = 215;

/** Where a slide has tissue, from a low-resolution thumbnail of it: a lookup by full-resolution pixel. */
export interface TissueMask {
  onTissue(x: number, y: number): boolean;
  /** Share of the slide that is tissue. */
  share: number;
}

/** Thresholds a thumbnail of `slide` (libvips reads it from the pyramid's smallest level). */
export async function tissueMask(slide: string, dir: string, size: { width: number; height: number }) {
  const thumbnail = path.join(dir, 'tissue-thumbnail.png');
  await run$('vips', ['thumbnail', slide, thumbnail, String(THUMBNAIL_SIDE)]);
  const { data, info } = await sharp(thumbnail).greyscale().raw().toBuffer({ resolveWithObject: true });
  let tissue = 0;
  for (const grey of data) if (grey < GLASS_GREY) tissue += 1;
  const [sx, sy] = [info.width / size.width, info.height / size.height];
  return {
    onTissue: (x: number, y: number) =>
      data[Math.min(info.height - 1, Math.floor(y * sy)) * info.width + Math.min(info.width - 1, Math.floor(x * sx))]! <
      GLASS_GREY,
    share: tissue / data.length,
  } satisfies TissueMask;
}

/** The indexes of a layout's grid whose nuclei lie on tissue, at most `limit`. */
function* onTissue(layout: NucleusLayout, mask: TissueMask, limit: number): Generator<number> {
  let found = 0;
  for (let index = 0; index < layout.count && found < limit; index += 1) {
    const { cx, cy } = nucleusAt(layout, index);
    if (mask.onTissue(cx, cy)) {
      found += 1;
      yield index;
    }
  }
}

/**
 * `count` synthetic nuclei laid over the slide's tissue: the grid whose nuclei on tissue number at least `count`,
 * its first `count` of them. Returns the grid and the FeatureCollection text, streamed (never whole in memory).
 */
export function tissueNuclei(size: { width: number; height: number }, mask: TissueMask, count: number) {
  let grid = Math.ceil(count / Math.max(mask.share, 0.01));
  let layout = nucleusLayout({ x: 0, y: 0, ...size }, grid);
  for (let found = [...onTissue(layout, mask, count)].length; found < count;) {
    grid = Math.ceil(grid * Math.max(1.05, count / Math.max(found, 1)));
    layout = nucleusLayout({ x: 0, y: 0, ...size }, grid);
    found = [...onTissue(layout, mask, count)].length;
  }
  const chosen = layout;
  const text = Readable.from(
    (function* chunks() {
      yield '{"type":"FeatureCollection","features":[';
      let batch: string[] = [];
      let first = true;
      for (const index of onTissue(chosen, mask, count)) {
        batch.push(JSON.stringify(nucleusFeature(chosen, index)));
        if (batch.length === 2_000) {
          yield (first ? '' : ',') + batch.join(',');
          first = false;
          batch = [];
        }
      }
      if (batch.length > 0) yield (first ? '' : ',') + batch.join(',');
      yield ']}';
    })(),
  );
  return { layout: chosen, text };
}
