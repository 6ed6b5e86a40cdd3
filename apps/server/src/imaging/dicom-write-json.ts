import type { DicomDataset } from './dicom-write.ts';

/** One attribute in the DICOM JSON model (PS3.18 §F.2). */
export interface DicomJsonAttribute {
  vr: string;
  Value?: unknown[];
  BulkDataURI?: string;
}

export type DicomJson = Record<string, DicomJsonAttribute>;

/**
 * A data set in the DICOM JSON model. Bytes (OB) are never inlined: they are named by a bulk data URI made from
 * their path of tags and item indexes (e.g. ["00480105", "0", "00282000"]), which the caller serves.
 */
export function toDicomJson(
  dataset: DicomDataset,
  bulkDataUri: (path: string[]) => string,
  path: string[] = [],
): DicomJson {
  const json: DicomJson = {};
  for (const key of Object.keys(dataset).sort()) {
    const attribute = dataset[key]!;
    const here = [...path, key];
    if (attribute.vr === 'SQ') {
      const items = attribute.items ?? [];
      json[key] =
        items.length === 0
          ? { vr: 'SQ' }
          : {
              vr: 'SQ',
              Value: items.map((item, index) => toDicomJson(item, bulkDataUri, [...here, String(index)])),
            };
    } else if (attribute.bytes != null) {
      json[key] = { vr: attribute.vr, BulkDataURI: bulkDataUri(here) };
    } else if (attribute.values == null || attribute.values.length === 0) {
      json[key] = { vr: attribute.vr };
    } else if (attribute.vr === 'PN') {
      json[key] = { vr: 'PN', Value: attribute.values.map((name) => ({ Alphabetic: String(name) })) };
    } else if (['DS', 'IS', 'US', 'UL', 'FL', 'FD'].includes(attribute.vr)) {
      json[key] = { vr: attribute.vr, Value: attribute.values.map(Number) };
    } else {
      json[key] = { vr: attribute.vr, Value: [...attribute.values] };
    }
  }
  return json;
}

/** The bytes an attribute path (as toDicomJson names it) leads to; null when it leads to none. */
export function bulkDataAt(dataset: DicomDataset, path: readonly string[]): Buffer | null {
  let current: DicomDataset | undefined = dataset;
  for (let index = 0; index < path.length; index++) {
    const attribute: DicomDataset[string] | undefined = current?.[path[index]!];
    if (attribute == null) return null;
    if (index === path.length - 1) return attribute.bytes ?? null;
    current = attribute.items?.[Number(path[++index])];
  }
  return null;
}
