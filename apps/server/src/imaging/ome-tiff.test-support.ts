import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { readTiffStructure, TIFF_TAG } from './tiff-structure.ts';

const run = promisify(execFile);

export interface OmePyramidSpec {
  /** Reduced levels as SubIFDs of the full-resolution IFD (OME-TIFF 6), or as the IFDs after it (older writers). */
  layout: 'subifds' | 'successive';
  tileSize: number;
  /**
   * JPEG unless told, at quality 95: the file's reduced levels are then a JPEG generation apart from those our
   * pyramid makes from its level 0 (on the real slide, level 1 differs by 2.9/255 at quality 95, by 3.4 at 90).
   */
  compression?: 'jpeg' | 'deflate';
}

/** The OME-XML of one 8-bit RGB plane, as Bio-Formats writes it for a brightfield slide. */
function omeXml(width: number, height: number): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<OME xmlns="http://www.openmicroscopy.org/Schemas/OME/2016-06"><Image ID="Image:0">' +
    `<Pixels ID="Pixels:0" DimensionOrder="XYCZT" Type="uint8" SizeX="${width}" SizeY="${height}" SizeC="3" SizeZ="1" SizeT="1">` +
    '<Channel ID="Channel:0:0" SamplesPerPixel="3"/><TiffData IFD="0" PlaneCount="1"/></Pixels></Image></OME>'
  );
}

/**
 * A pyramidal OME-TIFF of a classic TIFF's first page (e.g. the real Aperio slide), written by the vips
 * command line: the source's ImageDescription is pointed at OME-XML appended to a copy (so libvips loads it
 * as a plain TIFF and writes that description into the pyramid's first IFD), then `vips tiffsave --pyramid`.
 */
export async function writePyramidalOmeTiff(source: string, target: string, spec: OmePyramidSpec): Promise<void> {
  const data = await fs.readFile(source);
  const handle = await fs.open(source);
  const structure = await readTiffStructure(handle).finally(() => handle.close());
  const full = structure.pages[0]!;
  if (structure.bigTiff || !structure.littleEndian) throw new Error('the source must be a little-endian classic TIFF');
  const xml = Buffer.from(`${omeXml(full.width, full.height)}\0`, 'latin1');
  const entries = data.readUInt16LE(full.offset);
  const entry = Array.from({ length: entries }, (_, i) => full.offset + 2 + i * 12).find(
    (at) => data.readUInt16LE(at) === TIFF_TAG.ImageDescription,
  );
  if (entry == null) throw new Error('the source has no ImageDescription to point at OME-XML');
  data.writeUInt32LE(xml.length, entry + 4);
  data.writeUInt32LE(data.length, entry + 8);
  const described = `${target}.described.tif`;
  await fs.writeFile(described, Buffer.concat([data, xml]));
  try {
    const tile = String(spec.tileSize);
    await run('vips', [
      'tiffsave',
      described,
      target,
      '--tile',
      '--tile-width',
      tile,
      '--tile-height',
      tile,
      '--pyramid',
      ...(spec.layout === 'subifds' ? ['--subifd'] : []),
      '--compression',
      spec.compression ?? 'jpeg',
      ...(spec.compression === 'deflate' ? [] : ['--Q', '95']),
    ]);
  } finally {
    await fs.rm(described, { force: true });
  }
}
