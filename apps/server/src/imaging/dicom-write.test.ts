import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { bulkDataAt, toDicomJson } from './dicom-write-json.ts';
import {
  encodeDataset,
  formatDecimal,
  part10Head,
  part10Size,
  part10Stream,
  pixelDataOpening,
  TRANSFER_SYNTAX,
  type DicomDataset,
} from './dicom-write.ts';

describe('DICOM writer', () => {
  it('encodes Explicit VR Little Endian in tag order, padding strings to even lengths', () => {
    const bytes = encodeDataset({
      '00280010': { vr: 'US', values: [512] },
      '00080060': { vr: 'CS', values: ['SM'] },
      '00080018': { vr: 'UI', values: ['1.2.3'] },
    });
    expect(bytes.toString('hex')).toBe(
      [
        '08001800',
        '5549',
        '0600',
        '312e322e3300', // UI padded with NUL
        '08006000',
        '4353',
        '0200',
        '534d',
        '28001000',
        '5553',
        '0200',
        '0002',
      ].join(''),
    );
  });

  it('writes sequences and OB with 4-byte lengths and items with explicit lengths', () => {
    const bytes = encodeDataset({
      '00480105': { vr: 'SQ', items: [{ '00282000': { vr: 'OB', bytes: Buffer.from([1, 2, 3]) } }] },
    });
    // SQ header (12) + item header (8) + OB header (12) + 3 bytes padded to 4.
    expect(bytes.length).toBe(12 + 8 + 12 + 4);
    expect(bytes.readUInt32LE(8)).toBe(24);
    expect(bytes.subarray(12, 16).toString('hex')).toBe('feff00e0');
    expect(bytes.readUInt32LE(16)).toBe(16);
    expect(bytes.subarray(32).toString('hex')).toBe('01020300');
  });

  it('keeps decimal strings within 16 characters', () => {
    expect(formatDecimal(0.00025)).toBe('0.00025');
    expect(formatDecimal(0.000249963525657)).toHaveLength(16);
    expect(formatDecimal(1 / 3).length).toBeLessThanOrEqual(16);
    expect(formatDecimal(-1)).toBe('-1');
  });

  it('streams a Part 10 file of the size it announced, with a Basic Offset Table of its frames', async () => {
    const dataset: DicomDataset = {
      '00080016': { vr: 'UI', values: ['1.2.840.10008.5.1.4.1.1.77.1.6'] },
      '00080018': { vr: 'UI', values: ['2.25.1'] },
    };
    const head = part10Head(dataset, TRANSFER_SYNTAX.jpegBaseline);
    expect(head.subarray(128, 132).toString()).toBe('DICM');
    const frames = [Buffer.from([0xff, 0xd8, 0xff, 0xd9]), Buffer.from([0xff, 0xd8, 1, 0xff, 0xd9])];
    const file = await buffer(part10Stream(head, { count: 2, lengths: [4, 5], read: async (i) => frames[i]! }));
    expect(file.length).toBe(part10Size(head, [4, 5]));
    expect(file.includes(Buffer.from(TRANSFER_SYNTAX.jpegBaseline))).toBe(true);
    const opening = pixelDataOpening([4, 5]);
    // Offsets 0 and 8 + 4: the second frame starts after the first's item header and bytes.
    expect(opening.readUInt32LE(opening.length - 4)).toBe(12);
    expect(file.subarray(-8).toString('hex')).toBe('feffdde000000000');
  });

  it('refuses a frame whose length differs from the one announced (the zip and the table would lie)', async () => {
    const head = part10Head(
      { '00080016': { vr: 'UI', values: ['1.2'] }, '00080018': { vr: 'UI', values: ['2.25.1'] } },
      TRANSFER_SYNTAX.jpegBaseline,
    );
    const stream = part10Stream(head, { count: 1, lengths: [10], read: async () => Buffer.alloc(4) });
    await expect(buffer(stream)).rejects.toThrow(/announced/);
  });

  it('gives DICOM JSON with numbers as numbers, names as Alphabetic and bytes as bulk data', () => {
    const dataset: DicomDataset = {
      '00100010': { vr: 'PN', values: ['Doe^Jane'] },
      '00280010': { vr: 'US', values: [512] },
      '00280030': { vr: 'DS', values: [0.00025, 0.00025] },
      '00100020': { vr: 'LO' },
      '00480105': { vr: 'SQ', items: [{ '00282000': { vr: 'OB', bytes: Buffer.from('icc') } }] },
    };
    const json = toDicomJson(dataset, (path) => `bulk/${path.join('/')}`);
    expect(json).toEqual({
      '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Doe^Jane' }] },
      '00100020': { vr: 'LO' },
      '00280010': { vr: 'US', Value: [512] },
      '00280030': { vr: 'DS', Value: [0.00025, 0.00025] },
      '00480105': { vr: 'SQ', Value: [{ '00282000': { vr: 'OB', BulkDataURI: 'bulk/00480105/0/00282000' } }] },
    });
    expect(bulkDataAt(dataset, ['00480105', '0', '00282000'])?.toString()).toBe('icc');
    expect(bulkDataAt(dataset, ['00480105', '1', '00282000'])).toBeNull();
  });
});
