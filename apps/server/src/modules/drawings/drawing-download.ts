import { Readable } from 'node:stream';
import { DRAWING_MESSAGES, micronsPerPixelXY } from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { yazl } from '../../on-first-use.ts';
import { featureCollection, measurementsCsv, type DrawingDetections } from './drawing-export.ts';
import type { DrawingRepository, Reader } from './drawing.repository.ts';

interface Deps {
  drawings: DrawingRepository;
  capabilities: Pick<CapabilitiesService, 'getManyCaseCapabilities'>;
  /** Detections inside each drawing, for the measurements CSV. */
  detectionCounts?: (
    drawings: readonly { id: string; imageLayerId: string; geometry: unknown }[],
  ) => Promise<DrawingDetections>;
}

/** A zip member name: no path separators or characters Windows refuses, never empty. */
function safeName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this replaces
  const cleaned = name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim();
  return cleaned === '' || /^\.+$/.test(cleaned) ? 'image' : cleaned;
}

/**
 * POST drawings/download (part 2 §6, §7): every image must be on a case where the caller may download
 * drawings (canDownloadDrawings, which includes the group's downloadDrawingsEnabled). The zip holds,
 * per image with drawings, `<name>/drawings.geojson` and `<name>/measurements.csv`. Members are made
 * one image at a time as the client reads, so a thousand images never sit in memory together.
 */
export function createDrawingDownload({ drawings, capabilities, detectionCounts }: Deps) {
  return async function download(caller: Caller, imageIds: readonly string[]): Promise<Readable> {
    const unique = [...new Set(imageIds)];
    const found = await drawings.downloadableImages(unique);
    if (found.length !== unique.length) throw HttpError.notFound(DRAWING_MESSAGES.downloadNotFound);
    // Every case is looked at before any right is judged, so an image of a case the caller may not see answers
    // exactly as one that does not exist, whatever else is in the list (no 403 that would betray it).
    const caseIds = [...new Set(found.map((image) => image.caseId))];
    const capabilitiesByCase = await capabilities.getManyCaseCapabilities(caller, caseIds);
    if (caseIds.some((caseId) => !capabilitiesByCase.has(caseId))) {
      throw HttpError.notFound(DRAWING_MESSAGES.downloadNotFound);
    }
    if (caseIds.some((caseId) => capabilitiesByCase.get(caseId)?.canDownloadDrawings !== true)) {
      throw HttpError.forbidden();
    }
    const reader: Reader = { accountId: caller.accountId, canEditCase: false };
    const counts = await drawings.countByImage(unique, reader);
    const withDrawings = found.filter((image) => (counts.get(image.id) ?? 0) > 0);
    if (withDrawings.length === 0) throw HttpError.notFound(DRAWING_MESSAGES.downloadNotFound);

    const zip = new (yazl().ZipFile)();
    const used = new Set<string>();
    for (const image of withDrawings) {
      let folder = safeName(image.displayName);
      if (used.has(folder)) folder = `${folder} (${image.id.slice(0, 8)})`;
      used.add(folder);
      const rows = () => drawings.imageDrawings(image.id, reader);
      zip.addReadStreamLazy(`${folder}/drawings.geojson`, (done) => {
        rows().then(
          (list) => done(null, Readable.from(featureCollection(list))),
          (error: unknown) => done(error, Readable.from([])),
        );
      });
      zip.addReadStreamLazy(`${folder}/measurements.csv`, (done) => {
        rows()
          .then(async (list) => {
            const detections = await detectionCounts?.(list);
            done(null, Readable.from([measurementsCsv(list, micronsPerPixelXY(image.resolution), detections)]));
          })
          .catch((error: unknown) => done(error, Readable.from([])));
      });
    }
    zip.end();
    return zip.outputStream as Readable;
  };
}

export type DrawingDownload = ReturnType<typeof createDrawingDownload>;
