import type { TiffPage } from './tiff-structure.ts';

export interface Resolution {
  x: number;
  y: number;
  unit: 'dpc';
}

/** Microns per pixel → pixels per centimetre. */
export function resolutionFromMpp(mppX: number | null, mppY: number | null): Resolution | null {
  if (!mppX || !mppY || mppX <= 0 || mppY <= 0) return null;
  return { x: 10_000 / mppX, y: 10_000 / mppY, unit: 'dpc' };
}

/** A pixel's physical size in centimetres (OME-XML's PhysicalSize) → pixels per centimetre. */
export function resolutionFromPixelSize(size: { x: number; y: number } | null): Resolution | null {
  return size ? { x: 1 / size.x, y: 1 / size.y, unit: 'dpc' } : null;
}

/** TIFF XResolution/YResolution in their ResolutionUnit; unit 1 (none) carries no physical size. */
export function resolutionFromTiff(page: TiffPage): Resolution | null {
  const { xResolution: x, yResolution: y, resolutionUnit } = page;
  if (!x || !y || x <= 0 || y <= 0 || !Number.isFinite(x) || !Number.isFinite(y)) return null;
  if (resolutionUnit === 2) return { x: x / 2.54, y: y / 2.54, unit: 'dpc' };
  if (resolutionUnit === 3) return { x, y, unit: 'dpc' };
  return null;
}

/** TIFF/EXIF "YYYY:MM:DD HH:MM:SS" (no zone in the format; read as UTC so results do not depend on the server's zone). */
export function parseTiffDateTime(value: string | null | undefined): Date | null {
  const match = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value?.trim() ?? '');
  if (!match) return null;
  const part = (i: number) => Number(match[i]);
  const date = new Date(Date.UTC(part(1), part(2) - 1, part(3), part(4), part(5), part(6)));
  return Number.isNaN(date.getTime()) || part(1) < 1900 ? null : date;
}
