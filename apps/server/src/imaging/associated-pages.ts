import path from 'node:path';
import sharp from 'sharp';
import type { ConvertContext } from './context.ts';
import type { AssociatedPicture } from './layers.ts';
import { JPEG_QUALITY, rethrowSharpTimeout, sharpTimeout, writeAtomically } from './pyramid.ts';
import type { TiffStructure } from './tiff-structure.ts';

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

export async function writeAssociatedPage(
  context: ConvertContext,
  kind: Kind,
  page: number,
): Promise<AssociatedPicture> {
  const target = path.join(context.workDir, `associated-${kind}.jpg`);
  const info = await writeAtomically(target, (partial) =>
    sharp(context.sourcePath, { page, limitInputPixels: context.maxPixels })
      .timeout(sharpTimeout(context))
      .flatten({ background: { r: 255, g: 255, b: 255 } })
      .toColourspace('srgb')
      .jpeg({ quality: JPEG_QUALITY })
      .toFile(partial)
      .catch(rethrowSharpTimeout),
  ).then(() => sharp(target).metadata());
  return { kind, path: target, width: info.width, height: info.height };
}
