import { describe, expect, it } from 'vitest';
import { dicomInstance } from './dicom-test-instance.test-support.ts';
import { canParse } from './file-check.ts';

const fileOf = (bytes: Uint8Array<ArrayBuffer> | string, name: string) => new File([bytes], name);

/** A stored one-entry zip (the check reads the listing, not the CRC): local header, data, central directory, end. */
function oneEntryZip(name: string, data: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const nameBytes = new TextEncoder().encode(name);
  const local = new DataView(new ArrayBuffer(30));
  local.setUint32(0, 0x04034b50, true);
  local.setUint32(18, data.length, true);
  local.setUint32(22, data.length, true);
  local.setUint16(26, nameBytes.length, true);
  const central = new DataView(new ArrayBuffer(46));
  central.setUint32(0, 0x02014b50, true);
  central.setUint32(20, data.length, true);
  central.setUint32(24, data.length, true);
  central.setUint16(28, nameBytes.length, true);
  const centralOffset = 30 + nameBytes.length + data.length;
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, 1, true);
  end.setUint16(10, 1, true);
  end.setUint32(12, 46 + nameBytes.length, true);
  end.setUint32(16, centralOffset, true);
  const parts = [local, nameBytes, data, central, nameBytes, end].map((part) =>
    part instanceof DataView ? new Uint8Array(part.buffer) : part,
  );
  const zip = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (zip.set(part, at), at + part.length), 0);
  return zip;
}

describe('canParse', () => {
  it('takes a TIFF-based slide by its header and rejects a "TIFF" without one', async () => {
    expect(await canParse(fileOf(new Uint8Array([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]), 'slide.svs'))).toBe(true);
    expect(await canParse(fileOf(new Uint8Array([0x4d, 0x4d, 0, 0x2b, 0, 8, 0, 0]), 'big.tif'))).toBe(true);
    expect(await canParse(fileOf('this is not a slide', 'fake.tif'))).toBe(false);
    expect(await canParse(fileOf('', 'empty.ndpi'))).toBe(false);
  });

  it('takes a zip whose listing is there and rejects one whose central directory is broken or cut off', async () => {
    const zip = oneEntryZip('slide.vsi', new TextEncoder().encode('vsi header'));
    expect(await canParse(fileOf(zip, 'slide.zip'))).toBe(true);
    const broken = zip.slice();
    const end = broken.length - 22;
    broken.fill(0, new DataView(broken.buffer).getUint32(end + 16, true), end);
    expect(await canParse(fileOf(broken, 'broken.zip'))).toBe(false);
    expect(await canParse(fileOf(zip.slice(0, zip.length - 30), 'cut.zip'))).toBe(false);
    expect(await canParse(fileOf('PK but no listing', 'text.zip'))).toBe(false);
  });

  it('takes a whole-slide DICOM instance by its header and rejects a ".dcm" without one', async () => {
    const markerOnly = new Uint8Array(200);
    markerOnly.set(new TextEncoder().encode('DICM'), 128);
    expect(await canParse(fileOf(dicomInstance('1.2.3'), 'level-0.dcm'))).toBe(true);
    expect(await canParse(fileOf(markerOnly, 'marker-only.dcm'))).toBe(false);
    expect(await canParse(fileOf('this is not a DICOM file'.repeat(10), 'fake.dcm'))).toBe(false);
    expect(await canParse(fileOf('', 'empty.dcm'))).toBe(false);
  });

  it('fails a file that cannot be read, and takes any other readable type', async () => {
    const unreadable = fileOf('x', 'gone.pdf');
    Object.defineProperty(unreadable, 'slice', {
      value: () => ({ arrayBuffer: () => Promise.reject(new DOMException('gone', 'NotReadableError')) }),
    });
    expect(await canParse(unreadable)).toBe(false);
    expect(await canParse(fileOf('%PDF-1.4', 'report.pdf'))).toBe(true);
  });
});
