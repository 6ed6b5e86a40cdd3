import { isOmeXml, parseOmeXml } from './ome-xml.ts';
import { resolutionFromMpp, resolutionFromPixelSize, resolutionFromTiff, type Resolution } from './resolution.ts';
import { TIFF_TAG, type TiffPage } from './tiff-structure.ts';

export interface DeclaredScale {
  resolution: Resolution | null;
  magnification: number | null;
}

/** Aperio's ImageDescription: a title line, then `key = value` pairs joined by `|` (MPP, AppMag among them). */
function aperioFields(description: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const part of description.split('|')) {
    const match = /^\s*([^=]+?)\s*=\s*(.*?)\s*$/.exec(part);
    if (match) fields.set(match[1]!, match[2]!);
  }
  return fields;
}

function positiveNumber(text: string | undefined): number | null {
  const value = Number(text);
  return text != null && text !== '' && Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * The physical scale a TIFF original declares in its first page, read from the same fields its conversion
 * takes them from (Aperio's MPP and AppMag, as OpenSlide reports them; OME-XML's PhysicalSize and
 * NominalMagnification; else the TIFF resolution tags), so a slide viewed before its conversion shows the
 * scale it will have after.
 */
export function declaredScale(first: TiffPage): DeclaredScale {
  const description = first.imageDescription ?? '';
  if (description.startsWith('Aperio')) {
    const fields = aperioFields(description);
    const mpp = positiveNumber(fields.get('MPP'));
    return {
      resolution: resolutionFromMpp(mpp, mpp) ?? resolutionFromTiff(first),
      magnification: positiveNumber(fields.get('AppMag')),
    };
  }
  if (isOmeXml(description)) {
    const ome = parseOmeXml(description);
    if (ome != null) {
      return {
        resolution: resolutionFromPixelSize(ome.pixelSizeCm),
        magnification: ome.nominalMagnification,
      };
    }
  }
  // NDPI: the source lens (65421) is what OpenSlide reports as the objective power.
  const lens = first.ndpiMarker != null ? first.tags.get(TIFF_TAG.NdpiSourceLens)?.value : undefined;
  return {
    resolution: resolutionFromTiff(first),
    magnification: Array.isArray(lens) ? positiveNumber(String(lens[0])) : null,
  };
}
