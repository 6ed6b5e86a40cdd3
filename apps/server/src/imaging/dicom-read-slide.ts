import { UnsupportedImageError } from './errors.ts';
import type { DicomFrame, DicomInstance } from './dicom-read.ts';

/** One frame where it lies: its instance and its byte ranges. */
export interface PlacedFrame {
  instance: DicomInstance;
  frame: DicomFrame;
}

/** One pyramid level: every instance of the series with this total size, its frames by tile. */
export interface DicomLevel {
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  tilesAcross: number;
  tilesDown: number;
  /** By `row * tilesAcross + column`; a TILED_SPARSE level may leave tiles out (blank glass). */
  tiles: Map<number, PlacedFrame>;
  instances: DicomInstance[];
}

export type AssociatedFlavour = 'LABEL' | 'OVERVIEW' | 'THUMBNAIL';

export interface DicomSlide {
  seriesUid: string;
  /** Largest first. */
  levels: DicomLevel[];
  associated: Map<AssociatedFlavour, DicomInstance>;
}

function fail(reason: string): never {
  throw new UnsupportedImageError(`DICOM: ${reason}`);
}

/**
 * One slide from its instances: all of one series (one image is one slide), VOLUME instances grouped
 * into levels by their total size (a level may be split over several instances, by concatenation
 * or not), each level's frames placed on its tile grid.
 */
export function assembleSlide(instances: DicomInstance[]): DicomSlide {
  if (instances.length === 0) fail('no DICOM instances found');
  const series = [...new Set(instances.map((instance) => instance.seriesUid))];
  if (series.length > 1) {
    fail(
      `the upload holds instances of ${series.length} different slides (series ${series.join(', ')}); upload one slide per image`,
    );
  }
  const volumes = instances.filter((instance) => instance.flavour === 'VOLUME');
  if (volumes.length === 0) fail('the series has no VOLUME instance (only label, overview or thumbnail pictures)');
  const bySize = new Map<string, DicomInstance[]>();
  for (const instance of volumes) {
    const key = `${instance.totalColumns}x${instance.totalRows}`;
    bySize.set(key, [...(bySize.get(key) ?? []), instance]);
  }
  const levels = [...bySize.values()].map(level).sort((a, b) => b.width * b.height - a.width * a.height);
  const associated = new Map<AssociatedFlavour, DicomInstance>();
  for (const instance of instances) {
    const flavour = instance.flavour as AssociatedFlavour;
    if (['LABEL', 'OVERVIEW', 'THUMBNAIL'].includes(flavour) && !associated.has(flavour)) {
      associated.set(flavour, instance);
    }
  }
  return { seriesUid: series[0] ?? '', levels, associated };
}

function level(instances: DicomInstance[]): DicomLevel {
  const [first] = instances;
  if (!first) fail('empty level');
  const { totalColumns: width, totalRows: height, columns: tileWidth, rows: tileHeight } = first;
  const name = `level ${width}×${height}`;
  if (instances.some((i) => i.columns !== tileWidth || i.rows !== tileHeight)) {
    fail(`${name} mixes frame sizes`);
  }
  const tilesAcross = Math.ceil(width / tileWidth);
  const tilesDown = Math.ceil(height / tileHeight);
  checkConcatenations(name, instances);
  const tiles = new Map<number, PlacedFrame>();
  // TILED_SPARSE may leave blank glass out; TILED_FULL (or frames without positions, which can only be read so) may not.
  const sparse = instances.every((instance) => instance.positions !== null && instance.organization !== 'TILED_FULL');
  for (const instance of instances) {
    const frameOffset = instance.concatenation?.frameOffset ?? 0;
    instance.frames.forEach((frame, index) => {
      const position = instance.positions?.[index];
      let tile: number;
      if (position) {
        if (position.x % tileWidth !== 0 || position.y % tileHeight !== 0) {
          fail(
            `${instance.name}: frame ${index + 1} at (${position.x}, ${position.y}) is off the ${tileWidth}×${tileHeight} tile grid`,
          );
        }
        tile = (position.y / tileHeight) * tilesAcross + position.x / tileWidth;
      } else {
        // TILED_FULL: row by row, then further focal planes and optical paths, of which the first is kept.
        tile = frameOffset + index;
      }
      if (tile < tilesAcross * tilesDown && !tiles.has(tile)) tiles.set(tile, { instance, frame });
    });
  }
  if (!sparse && tiles.size < tilesAcross * tilesDown) {
    fail(`the series misses frames: ${name} has ${tiles.size} of its ${tilesAcross * tilesDown} tiles`);
  }
  return { width, height, tileWidth, tileHeight, tilesAcross, tilesDown, tiles, instances };
}

/** The parts of a concatenation follow one another: a gap in their frame offsets is a part not uploaded. */
function checkConcatenations(name: string, instances: DicomInstance[]): void {
  const byUid = new Map<string, DicomInstance[]>();
  for (const instance of instances) {
    if (instance.concatenation)
      byUid.set(instance.concatenation.uid, [...(byUid.get(instance.concatenation.uid) ?? []), instance]);
  }
  for (const parts of byUid.values()) {
    parts.sort((a, b) => (a.concatenation?.frameOffset ?? 0) - (b.concatenation?.frameOffset ?? 0));
    let expected = 0;
    for (const part of parts) {
      const offset = part.concatenation?.frameOffset ?? 0;
      if (offset !== expected) {
        fail(
          `the series misses frames: ${name} lacks frames ${expected + 1} to ${offset} (a part of its concatenation is missing)`,
        );
      }
      expected = offset + part.numberOfFrames;
    }
  }
}
