import { describe, expect, it } from 'vitest';
import {
  frameCount,
  instanceAttributes,
  type InstanceFacts,
  type SlideFacts,
  type StudyFacts,
} from './dicom-attributes.ts';
import { derivedUid, dicomUids, uuidUid } from './dicom-uids.ts';
import { srgbProfile } from './srgb-profile.ts';

const UID = /^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*$/;

const study: StudyFacts = {
  caseId: '6f1c2d3e-4b5a-4c6d-8e7f-901234567890',
  caseNumber: 'S-45-001',
  organ: 'stomach',
  specimenType: 'biopsy',
};
const slide: SlideFacts = {
  imageId: 'ffffffff-ffff-4fff-bfff-ffffffffffff',
  displayName: 'CMU-1.svs',
  acquiredAt: new Date('2026-11-28T01:02:03Z'),
  magnification: 20,
  imagedSize: { width: 1.1, height: 1.5 },
};
const level: InstanceFacts = {
  part: 'level-1',
  flavour: 'VOLUME',
  resampled: true,
  instanceNumber: 2,
  width: 1110,
  height: 1484,
  tileWidth: 512,
  tileHeight: 512,
  photometric: 'YBR_FULL_422',
  spacing: [0.001, 0.001],
  compressedBytes: 1_000_000,
};

describe('DICOM UIDs', () => {
  it('turns a UUID into 2.25.<its 128 bits as an integer>, valid and within 64 characters', () => {
    expect(uuidUid('00000000-0000-0000-0000-000000000001')).toBe('2.25.1');
    const largest = uuidUid(slide.imageId);
    expect(largest).toMatch(UID);
    expect(largest.length).toBeLessThanOrEqual(64);
    expect(BigInt(largest.slice(5)).toString(16)).toBe(slide.imageId.replace(/-/g, ''));
  });

  it('derives the same UID for the same image and part on every call, and different ones otherwise', () => {
    const a = dicomUids.instance(slide.imageId, 'level-0');
    expect(dicomUids.instance(slide.imageId, 'level-0')).toBe(a);
    expect(dicomUids.instance(slide.imageId, 'level-1')).not.toBe(a);
    expect(dicomUids.instance(study.caseId, 'level-0')).not.toBe(a);
    for (const uid of [a, dicomUids.frameOfReference(slide.imageId), derivedUid('x', 'y')]) {
      expect(uid).toMatch(UID);
      expect(uid.length).toBeLessThanOrEqual(64);
    }
  });
});

describe('DICOM attributes of a slide', () => {
  it('makes a TILED_FULL VL Whole Slide Microscopy level with its frames, spacing and an sRGB optical path', async () => {
    const icc = await srgbProfile();
    const dataset = instanceAttributes(study, slide, level, icc);
    expect(frameCount(level)).toBe(3 * 3);
    expect(dataset['00080016']?.values).toEqual(['1.2.840.10008.5.1.4.1.1.77.1.6']);
    expect(dataset['00080008']?.values).toEqual(['DERIVED', 'PRIMARY', 'VOLUME', 'RESAMPLED']);
    expect(dataset['00209311']?.values).toEqual(['TILED_FULL']);
    expect(dataset['00280008']?.values).toEqual([9]);
    expect([dataset['00480006']?.values, dataset['00480007']?.values]).toEqual([[1110], [1484]]);
    const shared = dataset['52009229']!.items![0]!;
    expect(shared['00289110']!.items![0]!['00280030']?.values).toEqual([0.001, 0.001]);
    const path = dataset['00480105']!.items![0]!;
    expect(path['00282000']?.bytes?.subarray(36, 40).toString()).toBe('acsp');
    expect(dataset['00200052']?.values).toEqual([dicomUids.frameOfReference(slide.imageId)]);
    expect(dataset['00400512']?.values).toEqual([slide.imageId]);
  });

  it('takes patient and study attributes from the case alone: case number, organ and specimen type', () => {
    const dataset = instanceAttributes(study, slide, level, Buffer.alloc(4));
    expect(dataset['00080050']?.values).toEqual(['S-45-001']);
    expect(dataset['00100020']?.values).toEqual(['S-45-001']);
    expect(dataset['00081030']?.values).toEqual(['stomach, biopsy']);
    expect(dataset['0020000D']?.values).toEqual([uuidUid(study.caseId)]);
    for (const empty of ['00100010', '00100030', '00100040', '00080020', '00080090']) {
      expect(dataset[empty]?.values, empty).toBeUndefined();
    }
    const bare = instanceAttributes({ ...study, organ: null, specimenType: null }, slide, level, Buffer.alloc(4));
    expect(bare['00081030']?.values).toBeUndefined();
  });

  it('gives a grey level no colour profile and a label no pixel spacing', () => {
    const grey = instanceAttributes(study, slide, { ...level, photometric: 'MONOCHROME2' }, Buffer.alloc(4));
    expect(grey['00280002']?.values).toEqual([1]);
    expect(grey['00480105']!.items![0]!['00282000']).toBeUndefined();
    const label = instanceAttributes(
      study,
      slide,
      {
        ...level,
        part: 'label',
        flavour: 'LABEL',
        spacing: null,
        width: 400,
        height: 300,
        tileWidth: 400,
        tileHeight: 300,
      },
      Buffer.alloc(4),
    );
    expect(label['00280008']?.values).toEqual([1]);
    expect(label['00480010']?.values).toEqual(['YES']);
    expect(label['52009229']!.items![0]!['00289110']!.items![0]).toEqual({});
  });
});
