import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { InstanceFiles, jpegShownAsMeant } from './dicom-convert-frames.ts';
import { readDicomInstance } from './dicom-read.ts';
import { tiffToDicomSlide } from './dicom-read.test-support.ts';
import { jpegFrameHeader, jpegSegments } from './jpeg-frame.ts';

/** The frame without its Adobe marker: RGB as encoders that write none leave it, only the component ids saying so. */
function withoutAdobe(jpeg: Buffer): Buffer {
  const adobe = [...jpegSegments(jpeg)].find((segment) => segment.marker === 0xee)!;
  return Buffer.concat([jpeg.subarray(0, adobe.position), jpeg.subarray(adobe.position + 2 + adobe.length)]);
}

/** The frame with other component ids, in its frame header and its scan header alike. */
function withIds(jpeg: Buffer, ids: number[]): Buffer {
  const copy = Buffer.from(jpeg);
  const frame = jpegFrameHeader(copy)!;
  const scan = [...jpegSegments(copy)].find((segment) => segment.marker === 0xda)!;
  ids.forEach((id, index) => {
    copy[frame + 10 + index * 3] = id;
    copy[scan.position + 5 + index * 2] = id;
  });
  return copy;
}

async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const [left, right] = await Promise.all([a, b].map((jpeg) => sharp(jpeg).raw().toBuffer()));
  let sum = 0;
  for (let i = 0; i < left!.length; i++) sum += Math.abs(left![i]! - right![i]!);
  return sum / left!.length;
}

describe('which JPEG frames decoders show as the instance means them', () => {
  it("takes RGB frames by their Adobe marker, else by component ids 'R', 'G', 'B' only, as libjpeg decodes them", async () => {
    const [file] = await tiffToDicomSlide({ tileSize: 512 });
    const instance = await readDicomInstance(file!, 'slide_0.dcm');
    expect(instance).toMatchObject({ photometric: 'RGB', coding: 'jpeg', columns: 512 });
    const files = new InstanceFiles();
    const frame = await files.read(instance, instance.frames[7]!).finally(() => files.close());

    expect(jpegShownAsMeant(instance, frame)).toMatchObject({ colour: 'rgb', stated: true, subsampling: [1, 1] });
    // Without the marker, ids R, G, B still make libjpeg (sharp's, and Chromium's) decode RGB: the same pixels.
    const unmarked = withoutAdobe(frame);
    expect(jpegShownAsMeant(instance, unmarked)).toMatchObject({ colour: 'rgb', stated: false });
    expect(await meanDifference(frame, unmarked)).toBe(0);
    // With ids 1, 2, 3 libjpeg takes the samples for YCbCr and shows other colours: such a frame is decoded instead.
    const misread = withIds(unmarked, [1, 2, 3]);
    expect(jpegShownAsMeant(instance, misread)).toBeNull();
    expect(await meanDifference(frame, misread)).toBeGreaterThan(20);
    // The same ids under a YCbCr interpretation are what that frame means.
    expect(jpegShownAsMeant({ ...instance, photometric: 'YBR_FULL_422' }, misread)).toMatchObject({ colour: 'ycbcr' });
  });
});
