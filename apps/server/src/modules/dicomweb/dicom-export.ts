import type { Readable } from 'node:stream';
import { part10Head, part10Size, part10Stream, TRANSFER_SYNTAX } from '../../imaging/dicom-write.ts';
import { yazl } from '../../on-first-use.ts';
import type { LoadedSlide, SlideInstance } from './dicom-slide.ts';

/**
 * An instance as a Part 10 file (JPEG baseline, frames encapsulated as stored), streamed, with its size; null while
 * its frames are cut from the original, whose lengths (for the size and the offset table) are known only once made.
 */
export function part10File(instance: SlideInstance): { size: number; stream: () => Readable } | null {
  const lengths = instance.frameLengths;
  if (lengths == null) return null;
  const head = part10Head(instance.dataset, TRANSFER_SYNTAX.jpegBaseline);
  return {
    size: part10Size(head, lengths),
    stream: () =>
      part10Stream(head, {
        count: lengths.length,
        lengths,
        read: (index) => instance.readFrame(index),
      }),
  };
}

/** A zip (stored, not deflated: JPEG does not shrink) of one Part 10 file per instance, each made as it is read. */
export function slideZip(slide: LoadedSlide): Readable {
  const zip = new (yazl().ZipFile)();
  for (const instance of slide.instances) {
    const file = part10File(instance);
    if (file == null) throw new Error(`instance ${instance.facts.part} of a slide not converted yet`);
    zip.addReadStreamLazy(`${instance.facts.part}.dcm`, { size: file.size, compress: false }, (done) =>
      done(null, file.stream()),
    );
  }
  zip.end();
  return zip.outputStream as Readable;
}
