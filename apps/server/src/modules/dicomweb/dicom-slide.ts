import { micronsPerPixelXY } from '@pathology/contract';
import { and, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cases, imageAssociated, imageLayers, images } from '../../db/schema/index.ts';
import { baselineJpegCoding, JPEG_COMPRESSION, jpegFrameHeader, type TiffPage } from '../../imaging/index.ts';
import { TILE_SIZE } from '../../imaging/pyramid.ts';
import type { DicomDataset } from '../../imaging/dicom-write.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { SERVABLE_FROM_ORIGINAL } from '../iiif/layer-access.ts';
import type { OriginalSource } from '../iiif/original-source.ts';
import type { OpenPyramid, PyramidCache } from '../iiif/pyramid-cache.ts';
import type { TileCache } from '../iiif/tile-cache.ts';
import { spliceJpegTile } from '../iiif/tile-render.ts';
import {
  frameCount,
  instanceAttributes,
  type ImageFlavour,
  type InstanceFacts,
  type SlideFacts,
  type StudyFacts,
} from './dicom-attributes.ts';
import { originalLevelFrames, type LevelFrames } from './original-frames.ts';
import { srgbProfile } from './srgb-profile.ts';

/** The columns a slide's DICOM form is made from: the image, its case, its first layer's pyramid. */
export const SLIDE_COLUMNS = {
  imageId: images.id,
  caseId: cases.id,
  caseNumber: cases.caseNumber,
  organ: cases.organ,
  specimenType: cases.specimenType,
  displayName: images.displayName,
  scannedAt: images.scannedAt,
  createdAt: images.createdAt,
  magnification: images.magnification,
  resolutionX: images.resolutionX,
  resolutionY: images.resolutionY,
  resolutionUnit: images.resolutionUnit,
  thumbnailKey: images.thumbnailKey,
  pyramidKey: imageLayers.pyramidKey,
  fromOriginal: imageLayers.fromOriginal,
};

export interface SlideRow {
  imageId: string;
  caseId: string;
  caseNumber: string;
  organ: string | null;
  specimenType: string | null;
  displayName: string;
  scannedAt: Date | null;
  createdAt: Date;
  magnification: number | null;
  resolutionX: number | null;
  resolutionY: number | null;
  resolutionUnit: 'dpi' | 'dpc' | null;
  thumbnailKey: string | null;
  pyramidKey: string;
  /** True while the slide converts: its frames are cut from the original, on the grid of the pyramid to come. */
  fromOriginal: boolean;
}

/** A converted slide: a pyramid of our own 512-px JPEG tiles, on its first layer. */
const CONVERTED_SLIDE = and(
  eq(images.status, 'available'),
  eq(imageLayers.layerNumber, 0),
  eq(imageLayers.fromOriginal, false),
)!;

/**
 * The slides served as DICOM: converted ones, and those viewable from their original while they convert (as their
 * IIIF tiles are), so a DICOMweb viewer opens a slide as soon as its upload ends.
 */
export const SLIDE_JOIN_CONDITION = or(CONVERTED_SLIDE, and(eq(imageLayers.layerNumber, 0), SERVABLE_FROM_ORIGINAL))!;

/** The slide's row; `converted` for what needs every frame's length beforehand (Part 10 files, the export). */
export async function findSlide(db: Db, imageId: string, converted = false): Promise<SlideRow | null> {
  const [row] = await db
    .select(SLIDE_COLUMNS)
    .from(images)
    .innerJoin(cases, eq(cases.id, images.caseId))
    .innerJoin(imageLayers, eq(imageLayers.imageId, images.id))
    .where(and(eq(images.id, imageId), converted ? CONVERTED_SLIDE : SLIDE_JOIN_CONDITION));
  return row ?? null;
}

/** One instance of a loaded slide, able to give its frames one at a time. */
export interface SlideInstance {
  facts: InstanceFacts;
  dataset: DicomDataset;
  frameCount: number;
  /**
   * Each frame's byte count, known from the pyramid's directory before any frame is read; null while the frames
   * are cut from the original, which is when no Part 10 file of the instance is offered.
   */
  frameLengths: number[] | null;
  readFrame(index: number): Promise<Buffer>;
}

export interface LoadedSlide {
  study: StudyFacts;
  slide: SlideFacts;
  instances: SlideInstance[];
}

const NOMINAL_MICRONS = 1;

/**
 * The photometric interpretation of the colours a JPEG decodes to: RGB where libjpeg wrote RGB (components
 * named R, G, B) or a DICOM's Adobe-RGB frame is kept as a level-0 tile (dicom-convert-base.ts).
 */
export function jpegPhotometric(jpeg: Buffer): InstanceFacts['photometric'] {
  const frame = jpegFrameHeader(jpeg);
  if (frame == null) throw new Error('frame is not a JPEG with a frame header');
  if (jpeg[frame + 9] === 1) return 'MONOCHROME2';
  const rgbIds = jpeg[frame + 10] === 0x52 && jpeg[frame + 13] === 0x47;
  return rgbIds || baselineJpegCoding(jpeg)?.colour === 'rgb' ? 'RGB' : 'YBR_FULL_422';
}

async function readBlob(blobs: BlobStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await blobs.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A level's frames. The pyramid is asked of the cache at each read, not kept: the cache closes the files that
 * fall out of it, and this slide may stay loaded longer.
 */
function levelFrames(open: () => Promise<OpenPyramid>, page: TiffPage): LevelFrames {
  const tables = page.jpegTables != null && page.jpegTables.length >= 4 ? page.jpegTables : null;
  // Spliced with the tables: the tables without their EOI, then the tile without its SOI.
  const lengths = page.tileByteCounts.map((count) => (tables == null ? count : tables.length - 2 + count - 2));
  return {
    count: lengths.length,
    lengths,
    async read(index: number): Promise<Buffer> {
      const offset = page.tileOffsets[index];
      const length = page.tileByteCounts[index];
      const pyramid = await open();
      if (offset == null || length == null) throw new Error(`tile ${index} is missing from ${pyramid.key}`);
      return spliceJpegTile(tables, await pyramid.reader.read(offset, length));
    },
  };
}

const PICTURE_FLAVOURS: Record<string, ImageFlavour> = { label: 'LABEL', macro: 'OVERVIEW', thumbnail: 'THUMBNAIL' };
const PICTURE_PARTS: Record<ImageFlavour, string> = {
  VOLUME: 'level',
  LABEL: 'label',
  OVERVIEW: 'overview',
  THUMBNAIL: 'thumbnail',
};

export interface SlideDeps {
  db: Db;
  blobs: BlobStore;
  pyramids: PyramidCache;
  originals: OriginalSource;
  /** The original's own tiles that frames cut from it are made of. */
  originalTiles: TileCache;
}

interface SlideLevel {
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  frames: LevelFrames;
}

/** A converted slide's levels: its pyramid's pages, their stored tiles the frames. */
async function storedLevels(deps: SlideDeps, key: string): Promise<SlideLevel[]> {
  const pages = (await deps.pyramids.get(key)).levels;
  if (pages.length === 0 || pages.some((page) => page.compression !== JPEG_COMPRESSION)) {
    throw new Error(`pyramid ${key} is not of JPEG tiles`);
  }
  return pages.map((page) => ({
    width: page.width,
    height: page.height,
    tileWidth: page.tileWidth!,
    tileHeight: page.tileHeight!,
    frames: levelFrames(() => deps.pyramids.get(key), page),
  }));
}

/** A converting slide's levels: those its pyramid will have, the frames cut from the original. */
async function originalLevels(deps: SlideDeps, key: string): Promise<SlideLevel[]> {
  const served = await deps.originals.served(key);
  if (served == null) throw new Error(`original ${key} is not served before its conversion`);
  return served.levels.map((size, level) => ({
    ...size,
    tileWidth: TILE_SIZE,
    tileHeight: TILE_SIZE,
    frames: originalLevelFrames(served, level, deps.originalTiles),
  }));
}

/**
 * A slide as DICOM instances: one per pyramid level (its stored tiles are the frames, in TILED_FULL order, which is
 * the TIFF's own tile order; while it converts, the same grid cut from the original), then label, overview (the
 * scanner's macro picture) and thumbnail, each a single frame holding the stored JPEG.
 */
export async function loadSlide(deps: SlideDeps, row: SlideRow) {
  const levels = await (row.fromOriginal ? originalLevels : storedLevels)(deps, row.pyramidKey);
  const icc = await srgbProfile();
  const full = levels[0]!;
  const microns = micronsPerPixelXY(
    row.resolutionX == null || row.resolutionUnit == null
      ? null
      : { x: row.resolutionX, y: row.resolutionY ?? row.resolutionX, unit: row.resolutionUnit },
  );
  // The standard wants a pixel spacing on every level: without a resolution, a nominal 1 µm (named in the README).
  const scale = microns ?? { x: NOMINAL_MICRONS, y: NOMINAL_MICRONS };
  const study: StudyFacts = {
    caseId: row.caseId,
    caseNumber: row.caseNumber,
    organ: row.organ,
    specimenType: row.specimenType,
  };
  const slide: SlideFacts = {
    imageId: row.imageId,
    displayName: row.displayName,
    acquiredAt: row.scannedAt ?? row.createdAt,
    magnification: row.magnification,
    imagedSize: { width: (full.width * scale.x) / 1000, height: (full.height * scale.y) / 1000 },
  };
  // Levels shrink by exactly 2^L (see chooseLevel in tile-render.ts), whichever way their size was rounded.
  const spacingOf = (scaleX: number, scaleY: number): [number, number] => [
    (scale.y * scaleY) / 1000,
    (scale.x * scaleX) / 1000,
  ];

  const instances: SlideInstance[] = [];
  const add = (facts: InstanceFacts, frames: LevelFrames) => {
    instances.push({
      facts,
      dataset: instanceAttributes(study, slide, facts, icc),
      frameCount: frames.count,
      frameLengths: frames.lengths,
      readFrame: (index) => frames.read(index),
    });
  };
  for (const [level, { frames, ...size }] of levels.entries()) {
    const first = await frames.read(0);
    const facts: InstanceFacts = {
      part: `level-${level}`,
      flavour: 'VOLUME',
      resampled: level > 0,
      instanceNumber: level + 1,
      ...size,
      photometric: jpegPhotometric(first),
      spacing: spacingOf(2 ** level, 2 ** level),
      // Frames cut on request have no length yet: the first one stands for the others in the compression ratio.
      compressedBytes: frames.lengths?.reduce((sum, length) => sum + length, 0) ?? first.length * frames.count,
    };
    if (frameCount(facts) !== frames.count) throw new Error(`level ${level} of ${row.pyramidKey} lacks tiles`);
    add(facts, frames);
  }

  const pictures = await deps.db
    .select({ kind: imageAssociated.kind, blobKey: imageAssociated.blobKey })
    .from(imageAssociated)
    .where(eq(imageAssociated.imageId, row.imageId));
  if (!pictures.some((picture) => picture.kind === 'thumbnail') && row.thumbnailKey != null) {
    pictures.push({ kind: 'thumbnail', blobKey: row.thumbnailKey });
  }
  const order: ImageFlavour[] = ['LABEL', 'OVERVIEW', 'THUMBNAIL'];
  pictures.sort((a, b) => order.indexOf(PICTURE_FLAVOURS[a.kind]!) - order.indexOf(PICTURE_FLAVOURS[b.kind]!));
  for (const picture of pictures) {
    const flavour = PICTURE_FLAVOURS[picture.kind]!;
    const jpeg = await readBlob(deps.blobs, picture.blobKey);
    const frame = jpegFrameHeader(jpeg);
    if (frame == null) continue;
    const height = jpeg.readUInt16BE(frame + 5);
    const width = jpeg.readUInt16BE(frame + 7);
    const facts: InstanceFacts = {
      part: PICTURE_PARTS[flavour],
      flavour,
      resampled: flavour === 'THUMBNAIL',
      instanceNumber: instances.length + 1,
      width,
      height,
      tileWidth: width,
      tileHeight: height,
      photometric: jpegPhotometric(jpeg),
      spacing: flavour === 'THUMBNAIL' ? spacingOf(full.width / width, full.height / height) : null,
      compressedBytes: jpeg.length,
    };
    add(facts, { count: 1, lengths: [jpeg.length], read: () => Promise.resolve(jpeg) });
  }
  return { study, slide, instances } satisfies LoadedSlide;
}
