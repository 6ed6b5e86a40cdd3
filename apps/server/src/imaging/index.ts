export { sniffKind, kindMatchesExtension, type SniffedKind } from './sniff.ts';
export { UnsupportedImageError, InvalidVsiZipError, ImagingTimeoutError } from './errors.ts';
export { validateVsiZip, type ZipSource } from './vsi-zip.ts';
export { zipHoldsDicom } from './dicom-zip.ts';
export { detectImagingTools, type ImagingTools } from './tools.ts';
export { convertImage } from './convert.ts';
export { declaredScale, type DeclaredScale } from './declared-scale.ts';
export type { ConvertedImage, ConvertOptions } from './types.ts';
export type { ConvertedLayer, AssociatedPicture } from './layers.ts';
export {
  readTiffStructure,
  readTiffDirectoryAt,
  readSubIfdPages,
  fileHandleReader,
  TIFF_TAG,
  JPEG_COMPRESSION,
  type ByteReader,
  type TiffPage,
  type TiffStructure,
  type TiffTag,
} from './tiff-structure.ts';
export { baselineJpegCoding, jpegFrameHeader } from './jpeg-frame.ts';
export { restartLayout, stitchJpegBlocks, type RestartLayout, type RestartTile } from './jpeg-restart-crop.ts';
