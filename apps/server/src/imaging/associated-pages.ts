import { open } from 'node:fs/promises';
import path from 'node:path';
import { sharp } from './sharp-setup.ts';
import type { ConvertContext } from './context.ts';
import type { AssociatedPicture } from './layers.ts';
import { JPEG_QUALITY, rethrowSharpTimeout, sharpTimeout, writeAtomically } from './pyramid.ts';
import { TIFF_TAG, type TiffPage, type TiffStructure } from './tiff-structure.ts';

type Kind = AssociatedPicture['kind'];

/**
 * Aperio keeps label, macro and thumbnail as untiled TIFF pages after the pyramid; OpenSlide names them
 * the same way (thumbnail = first untiled page, label/macro from the description's second line).
 * We read them with sharp because `vips openslideload --associated` segfaults in vips 8.14 + OpenSlide 3.4.1.
 */
export function aperioAssociatedPages(structure: TiffStructure): Array<{ kind: Kind; page: number }> {
  const found = new Map<Kind, number>();
  for (const page of structure.pages.slice(1)) {
    if (page.tileWidth !== null) continue;
    const named = /^[^\n]*\n\s*(label|macro)\b/.exec(page.imageDescription ?? '')?.[1] as Kind | undefined;
    const kind: Kind = named ?? 'thumbnail';
    if (!found.has(kind)) found.set(kind, page.index);
  }
  return [...found].map(([kind, page]) => ({ kind, page }));
}

/**
 * NDPI marks its macro picture with source lens -1 (65421) and its map with -2, which OpenSlide
 * does not offer and neither do we; each is one JPEG in one strip.
 */
export function ndpiMacroPage(structure: TiffStructure): TiffPage | null {
  return (
    structure.pages.find((page) => {
      const lens = page.tags.get(TIFF_TAG.NdpiSourceLens)?.value;
      return Array.isArray(lens) && lens[0] === -1 && page.stripOffsets.length === 1;
    }) ?? null
  );
}

/** The JPEG strip of an NDPI page, read from its bytes: libtiff cannot follow NDPI's offsets past 4 GiB. */
export async function writeAssociatedStrip(
  context: ConvertContext,
  kind: Kind,
  page: TiffPage,
): Promise<AssociatedPicture> {
  return writeAssociated(context, kind, await readStrip(context, page));
}

/** The one strip of a page of the source (an NDPI level or side picture: a whole JPEG). */
export async function readStrip(context: ConvertContext, page: TiffPage): Promise<Buffer> {
  const handle = await open(context.sourcePath, 'r');
  const jpeg = Buffer.alloc(page.stripByteCounts[0] ?? 0);
  await handle.read(jpeg, 0, jpeg.length, page.stripOffsets[0]).finally(() => handle.close());
  return jpeg;
}

export function writeAssociatedPage(context: ConvertContext, kind: Kind, page: number): Promise<AssociatedPicture> {
  return writeAssociated(context, kind, context.sourcePath, page);
}

async function writeAssociated(
  context: ConvertContext,
  kind: Kind,
  source: string | Buffer,
  page = 0,
): Promise<AssociatedPicture> {
  const target = path.join(context.workDir, `associated-${kind}.jpg`);
  const info = await writeAtomically(target, (partial) =>
    sharp(source, { page, limitInputPixels: context.maxPixels })
      .timeout(sharpTimeout(context))
      .flatten({ background: { r: 255, g: 255, b: 255 } })
      .toColourspace('srgb')
      .jpeg({ quality: JPEG_QUALITY })
      .toFile(partial)
      .catch(rethrowSharpTimeout),
  ).then(() => sharp(target).metadata());
  return { kind, path: target, width: info.width, height: info.height };
}
