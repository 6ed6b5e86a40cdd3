import { describe, expect, it } from 'vitest';
import { kindMatchesExtension, sniffKind } from './sniff.ts';

const bytes = (...values: number[]) => Buffer.from(values);

describe('sniffKind', () => {
  it.each([
    ['classic little-endian TIFF', bytes(0x49, 0x49, 42, 0, 8, 0, 0, 0), 'tiff'],
    ['classic big-endian TIFF', bytes(0x4d, 0x4d, 0, 42, 0, 0, 0, 8), 'tiff'],
    ['little-endian BigTIFF', bytes(0x49, 0x49, 43, 0, 8, 0, 0, 0), 'bigtiff'],
    ['big-endian BigTIFF', bytes(0x4d, 0x4d, 0, 43, 0, 8, 0, 0), 'bigtiff'],
    ['JPEG', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 16), 'jpeg'],
    ['PNG', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0), 'png'],
    ['zip', bytes(0x50, 0x4b, 3, 4, 20, 0), 'zip'],
    ['empty zip', bytes(0x50, 0x4b, 5, 6, 0, 0), 'zip'],
    [
      'iSyntax',
      Buffer.from('<?xml version="1.0" encoding="UTF-8" ?>\r\n<DataObject ObjectType="DPUfsImport">'),
      'isyntax',
    ],
    ['DICOM Part 10', Buffer.concat([Buffer.alloc(128), Buffer.from('DICM\x02\x00\x00\x00', 'latin1')]), 'dicom'],
    ['DICM at the start, not at 128', Buffer.from('DICM' + ' '.repeat(200), 'latin1'), null],
    ['text', Buffer.from('hello world'), null],
    ['TIFF order mark with a wrong magic', bytes(0x49, 0x49, 44, 0), null],
    ['empty', Buffer.alloc(0), null],
    ['two bytes', bytes(0x49, 0x49), null],
  ] as const)('%s', (_label, head, kind) => {
    expect(sniffKind(head)).toBe(kind);
  });
});

describe('kindMatchesExtension', () => {
  it.each([
    ['tiff', '.svs', true],
    ['bigtiff', '.ndpi', true],
    ['tiff', '.tif', true],
    ['bigtiff', '.tiff', true],
    ['jpeg', '.jpg', true],
    ['jpeg', '.jpeg', true],
    ['png', '.png', true],
    ['zip', '.zip', true],
    ['isyntax', '.isyntax', true],
    ['isyntax', '.i2syntax', true],
    ['dicom', '.dcm', true],
    ['dicom', '.tif', false],
    ['tiff', '.dcm', false],
    ['png', '.svs', false],
    ['tiff', '.jpg', false],
    ['zip', '.isyntax', false],
    [null, '.tif', false],
    ['tiff', '.TIF', false],
    ['tiff', '.exe', false],
    ['tiff', 'constructor', false],
  ] as const)('%s with %s → %s', (kind, extension, expected) => {
    expect(kindMatchesExtension(kind, extension)).toBe(expected);
  });
});
