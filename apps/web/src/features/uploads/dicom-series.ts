import { readDicomHeader, WSI_SOP_CLASS } from './dicom-header.ts';
import { extensionOf } from './file-types.ts';
import { storedZip } from './stored-zip.ts';

const seriesZips = new WeakSet<File>();

/** A zip this module made of one series' instances (the bulk upload takes it, though it takes no zip chosen as one). */
export const isDicomSeriesZip = (file: File) => seriesZips.has(file);

/**
 * Files chosen together, with the .dcm instances of one slide (one SeriesInstanceUID) made into one zip each, which
 * the server imports as one image; the zip is named after the series' first file, so a bulk upload's
 * "<case number>--…" name still says where it goes. Every other file, a slide's lone instance, and a .dcm that is no
 * readable whole-slide instance stay as they are: the parse check then names the last.
 */
export async function groupDicomSeries(files: readonly File[]): Promise<File[]> {
  const kept: File[] = [];
  const series = new Map<string, File[]>();
  for (const file of files) {
    const header = extensionOf(file.name) === '.dcm' ? await readDicomHeader(file).catch(() => null) : null;
    if (header == null || header.sopClassUid !== WSI_SOP_CLASS) {
      kept.push(file);
      continue;
    }
    const instances = series.get(header.seriesInstanceUid);
    if (instances) instances.push(file);
    else series.set(header.seriesInstanceUid, [file]);
  }
  for (const instances of series.values()) {
    if (instances.length === 1) {
      kept.push(instances[0]!);
      continue;
    }
    const sorted = [...instances].sort((a, b) => a.name.localeCompare(b.name));
    const name = `${sorted[0]!.name.replace(/\.dcm$/i, '')}.zip`;
    const zip = await storedZip(
      sorted.map((file) => ({ name: file.name, file })),
      name,
    );
    seriesZips.add(zip);
    kept.push(zip);
  }
  return kept;
}
