import type { AssociatedPicture, ConvertedLayer } from './layers.ts';
import type { Resolution } from './resolution.ts';

export interface ConvertedImage {
  /** OpenSlide vendor ('aperio', 'hamamatsu', 'generic-tiff', …), or 'ome-tiff', 'tiff', 'jpeg', 'png'. */
  format: string;
  /** Level 0 of layer 0. */
  width: number;
  height: number;
  /** Pixels per centimetre; null when the file does not say. */
  resolution: Resolution | null;
  /** Objective power. */
  magnification: number | null;
  /** Scanner id or model. */
  scannedIn: string | null;
  scannedAt: Date | null;
  /** At least one; OME z-planes in TheZ order. */
  layers: ConvertedLayer[];
  /** JPEG fitting 512×512. */
  thumbnailPath: string;
  associated: AssociatedPicture[];
}

export interface ConvertOptions {
  sourcePath: string;
  /** Owned and deleted by the caller; every output is written inside it. */
  workDir: string;
  /** Budget for the whole conversion. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Largest accepted width × height of any page (default 5e10). */
  maxPixels?: number;
  /** Niceness of the vips processes it runs (default 0: the caller's own priority). */
  niceness?: number;
}
