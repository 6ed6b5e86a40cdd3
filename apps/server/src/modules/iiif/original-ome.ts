import { readSubIfdPages, type ByteReader, type TiffPage } from '../../imaging/index.ts';
import { isOmeXml, parseOmeXml } from '../../imaging/ome-xml.ts';

/**
 * The pages an original is served from before its conversion: its IFD chain, or for an OME-TIFF its first
 * plane with that plane's reduced levels — its SubIFDs (OME-TIFF since 2020), else the IFDs after it (older
 * writers; planOriginal keeps those of the plane's shape). Only an OME file its conversion shows as that
 * one plane qualifies (a single z, its colours in one IFD); a z-stack, whose planes become layers, or
 * channels joined into colours are converted first (null).
 */
export async function servedPages(pages: readonly TiffPage[], reader: ByteReader): Promise<readonly TiffPage[] | null> {
  const full = pages[0];
  if (full == null || !isOmeXml(full.imageDescription)) return pages;
  const ome = parseOmeXml(full.imageDescription);
  if (ome == null || ome.sizeZ !== 1 || ome.sizeC > full.samplesPerPixel) return null;
  const reduced = await readSubIfdPages(reader, full);
  return reduced.length > 0 ? [full, ...reduced] : pages;
}
