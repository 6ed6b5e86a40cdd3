import { open } from 'node:fs/promises';
import path from 'node:path';
import type { DeclaredScale } from './declared-scale.ts';
import { InstanceFiles } from './dicom-convert-frames.ts';
import { isDicomHead, readDicomInstance, type DicomInstance } from './dicom-read.ts';
import { assembleSlide, type DicomSlide } from './dicom-read-slide.ts';
import { dicomZipInstances } from './dicom-zip.ts';
import { resolutionFromMpp } from './resolution.ts';

/** A DICOM slide opened for reading its frames: its levels placed, its files open until `close`. */
export interface OpenDicomSlide {
  slide: DicomSlide;
  files: InstanceFiles;
  close(): Promise<void>;
}

/**
 * Opens a DICOM upload for reading frame by frame. A zip's instances are extracted into `folder` first:
 * zip tools deflate their entries, and a deflated entry cannot be read at an offset.
 */
export async function openDicomSlide(file: string, folder: string): Promise<OpenDicomSlide> {
  const head = Buffer.alloc(132);
  const handle = await open(file, 'r');
  const { bytesRead } = await handle.read(head, 0, head.length, 0).finally(() => handle.close());
  const sources = isDicomHead(head.subarray(0, bytesRead))
    ? [{ file, name: path.basename(file) }]
    : await dicomZipInstances(file, folder);
  const instances: DicomInstance[] = [];
  for (const source of sources) instances.push(await readDicomInstance(source.file, source.name, source.span));
  const files = new InstanceFiles();
  return { slide: assembleSlide(instances), files, close: () => files.close() };
}

/** The scale a slide declares: its largest level's pixel spacing, the objective power any of its instances gives. */
export function dicomScale(slide: DicomSlide): DeclaredScale {
  const base = slide.levels[0];
  const spacing = base?.instances.find((instance) => instance.pixelSpacingMm)?.pixelSpacingMm ?? null;
  const instances = [...slide.levels.flatMap((level) => level.instances), ...slide.associated.values()];
  return {
    // PixelSpacing is [between rows, between columns] in mm: the column spacing is a pixel's width.
    resolution: spacing ? resolutionFromMpp(spacing[1] * 1000, spacing[0] * 1000) : null,
    magnification: instances.find((instance) => instance.objectivePower)?.objectivePower ?? null,
  };
}
