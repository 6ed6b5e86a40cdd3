import type { ImagePoint } from '@pathology/contract';
import type { LinkMode, PaneView } from './linking.ts';

export const MIN_COMPARE_IMAGES = 2;
export const MAX_COMPARE_IMAGES = 4;

/** Everything a link to a comparison carries, so a colleague opens the same view. */
export interface CompareState {
  imageIds: string[];
  mode: LinkMode;
  /** Index of the leading pane. */
  leader: number;
  /** The leader's centre (image pixels) and zoom (screen pixels per image pixel); absent: every slide fits. */
  view?: Pick<PaneView, 'centre' | 'zoom'>;
  /** Per pane, its own turn in degrees. */
  rotations: number[];
  /** Per pane, its shift in µm (relative linking). */
  offsets: ImagePoint[];
  /** Per pane, whether it follows the link. */
  locked: boolean[];
}

const numbers = (text: string | null, separator: string) =>
  (text ?? '').split(separator).map((part) => (part.trim() === '' ? Number.NaN : Number(part)));

const finiteOr = (value: number | undefined, fallback: number) =>
  value !== undefined && Number.isFinite(value) ? value : fallback;

/** Rounds for the address bar: 1/100 pixel or µm, 1/100 degree, 6 significant digits of zoom. */
const round = (value: number) => String(Math.round(value * 100) / 100);

/** The comparison a query string names; undefined unless it names 2 to 4 different images. */
export function parseCompareSearch(search: URLSearchParams): CompareState | undefined {
  const imageIds = (search.get('images') ?? '').split(',').filter((id) => id !== '');
  const count = imageIds.length;
  if (count < MIN_COMPARE_IMAGES || count > MAX_COMPARE_IMAGES || new Set(imageIds).size !== count) return undefined;
  const leader = Number(search.get('leader') ?? 0);
  const [x, y] = numbers(search.get('centre'), ',');
  const zoom = Number(search.get('zoom'));
  const rotations = numbers(search.get('rotation'), ',');
  const offsets = (search.get('offset') ?? '').split(',').map((pair) => numbers(pair, ':'));
  const unlocked = new Set(numbers(search.get('unlocked'), ','));
  return {
    imageIds,
    mode: search.get('mode') === 'relative' ? 'relative' : 'absolute',
    leader: Number.isInteger(leader) && leader >= 0 && leader < count ? leader : 0,
    view:
      Number.isFinite(x) && Number.isFinite(y) && zoom > 0 && Number.isFinite(zoom)
        ? { centre: [x!, y!], zoom }
        : undefined,
    rotations: imageIds.map((_, index) => finiteOr(rotations[index], 0)),
    offsets: imageIds.map((_, index) => [finiteOr(offsets[index]?.[0], 0), finiteOr(offsets[index]?.[1], 0)]),
    locked: imageIds.map((_, index) => !unlocked.has(index)),
  };
}

/** The query string of a comparison; defaults are left out so a plain link stays short. */
export function compareSearch(state: CompareState): string {
  const params = new URLSearchParams({ images: state.imageIds.join(',') });
  if (state.mode !== 'absolute') params.set('mode', state.mode);
  if (state.leader !== 0) params.set('leader', String(state.leader));
  if (state.view) {
    params.set('centre', state.view.centre.map(round).join(','));
    params.set('zoom', String(Number(state.view.zoom.toPrecision(6))));
  }
  if (state.rotations.some((degrees) => degrees !== 0)) params.set('rotation', state.rotations.map(round).join(','));
  if (state.offsets.some(([dx, dy]) => dx !== 0 || dy !== 0)) {
    params.set('offset', state.offsets.map((offset) => offset.map(round).join(':')).join(','));
  }
  const unlocked = state.locked.flatMap((locked, index) => (locked ? [] : [index]));
  if (unlocked.length > 0) params.set('unlocked', unlocked.join(','));
  // Commas and colons are left readable: they are allowed in a query and the ids never contain them.
  return `?${params.toString().replaceAll('%2C', ',').replaceAll('%3A', ':')}`;
}

/** The comparison of `imageIds`, opened as it would be from a plain link. */
export function comparePath(imageIds: readonly string[]): string {
  return `/compare?images=${imageIds.map(encodeURIComponent).join(',')}`;
}
