import { IIIF_FORMATS, IIIF_QUALITIES, MAX_OUTPUT_AREA } from './iiif-params.ts';

export const IIIF_CONTEXT = 'http://iiif.io/api/image/2/context.json';
export const IIIF_PROFILE = 'http://iiif.io/api/image/2/level2.json';

/** What this server supports beyond level 2's requirements, as info.json announces it. */
const SUPPORTS = [
  'baseUriRedirect',
  'cors',
  'jsonldMediaType',
  'mirroring',
  'profileLinkHeader',
  'regionByPct',
  'regionByPx',
  'regionSquare',
  'rotationBy90s',
  'sizeByConfinedWh',
  'sizeByH',
  'sizeByPct',
  'sizeByW',
  'sizeByWh',
];

/** The image information document (IIIF Image API 2.1 §5) of one pyramid: its levels' sizes, full first. */
export function buildInfoJson(
  id: string,
  levels: readonly { width: number; height: number }[],
  tile: { width: number; height: number },
) {
  const full = levels[0]!;
  return {
    '@context': IIIF_CONTEXT,
    '@id': id,
    protocol: 'http://iiif.io/api/image',
    width: full.width,
    height: full.height,
    // Smallest first, as the specification recommends; each a level a client may ask for whole.
    sizes: levels.map((page) => ({ width: page.width, height: page.height })).reverse(),
    tiles: [
      {
        width: tile.width,
        height: tile.height,
        scaleFactors: levels.map((_, index) => 2 ** index),
      },
    ],
    profile: [
      IIIF_PROFILE,
      { formats: [...IIIF_FORMATS], qualities: [...IIIF_QUALITIES], supports: SUPPORTS, maxArea: MAX_OUTPUT_AREA },
    ],
  };
}
