import { UnsupportedImageError } from './errors.ts';
import { TIFF_TAG, type TiffPage, type TiffStructure } from './tiff-structure.ts';

/**
 * The largest real slides are ~300k × 100k px (75 × 25 mm at 0.25 µm/px = 3e10 px); 5e10 leaves room
 * for those while refusing headers that would make vips/sharp allocate or iterate for days.
 */
export const DEFAULT_MAX_PIXELS = 5e10;
/**
 * JPEG and PNG cannot be read a region at a time: building a pyramid decodes them whole. They are
 * held to a fiftieth of the limit (10⁹ px, 3 GB of RGB, by default) so a small file declaring
 * 50000×50000 px (a decompression bomb) is refused from its header instead of filling memory and disk.
 */
export const WHOLE_DECODE_SHARE = 50;
/** No scanner writes a side over ~300k px; a million refuses absurd single-axis claims early. */
export const MAX_SIDE = 1_000_000;

export function checkDimensions(width: number, height: number, maxPixels: number, what = 'Image'): void {
  if (!(width > 0 && height > 0)) throw new UnsupportedImageError(`${what} has no pixels (${width}×${height})`);
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > maxPixels) {
    throw new UnsupportedImageError(
      `${what} claims ${width}×${height} pixels, above the limit of ${MAX_SIDE} px per side and ${maxPixels} px in total`,
    );
  }
}

/**
 * Refuses hostile or damaged TIFFs before any decoder opens them: absurd sizes, missing tiles or strips,
 * and data past the end of the file (a truncated upload would otherwise make decoders fail late or render grey).
 */
export function checkTiffStructure(structure: TiffStructure, maxPixels: number): void {
  for (const page of structure.pages) {
    checkDimensions(page.width, page.height, maxPixels, `TIFF page ${page.index}`);
    const tiled = page.tileWidth !== null && page.tileHeight !== null;
    const offsets = tiled ? page.tileOffsets : page.stripOffsets;
    const counts = tiled ? page.tileByteCounts : page.stripByteCounts;
    const planes = page.planarConfiguration === 2 ? page.samplesPerPixel : 1;
    let expected: number;
    if (tiled) {
      const tileWidth = page.tileWidth ?? 0;
      const tileHeight = page.tileHeight ?? 0;
      if (tileWidth < 1 || tileHeight < 1)
        throw new UnsupportedImageError(`TIFF page ${page.index} has an empty tile size`);
      expected = Math.ceil(page.width / tileWidth) * Math.ceil(page.height / tileHeight) * planes;
    } else {
      const rows = Math.min(page.rowsPerStrip ?? page.height, page.height) || page.height;
      expected = Math.ceil(page.height / rows) * planes;
    }
    if (offsets.length < expected || counts.length < expected) {
      throw new UnsupportedImageError(`TIFF page ${page.index} lists ${offsets.length} of ${expected} tiles or strips`);
    }
    for (let i = 0; i < expected; i++) {
      const end = (offsets[i] ?? 0) + (counts[i] ?? 0);
      if (end > structure.size) {
        throw new UnsupportedImageError(
          `TIFF page ${page.index} data ends at byte ${end} but the file has ${structure.size} bytes (truncated file?)`,
        );
      }
    }
    checkMcuStarts(page);
  }
}

/**
 * An NDPI level's McuStarts (65426) place its restart segments inside its one strip; one past the
 * strip means a damaged file, whose regions would be read from the wrong bytes.
 */
function checkMcuStarts(page: TiffPage): void {
  const starts = page.tags.get(TIFF_TAG.NdpiMcuStarts)?.value;
  if (page.ndpiMarker === null || !Array.isArray(starts)) return;
  const stripLength = page.stripByteCounts[0] ?? 0;
  const outside = starts.find((start) => start >= stripLength);
  if (outside !== undefined) {
    throw new UnsupportedImageError(
      `NDPI page ${page.index}: a restart segment starts at byte ${outside} of a ${stripLength}-byte JPEG (damaged file?)`,
    );
  }
}
