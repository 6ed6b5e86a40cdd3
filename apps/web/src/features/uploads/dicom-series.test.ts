import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { readDicomHeader, WSI_SOP_CLASS } from './dicom-header.ts';
import { dicomInstance } from './dicom-test-instance.test-support.ts';
import { groupDicomSeries } from './dicom-series.ts';
import { canParse } from './file-check.ts';
import { crc32Of } from './stored-zip.ts';

const CT_IMAGE = '1.2.840.10008.5.1.4.1.1.2';

/** Each entry of a zip as yauzl (the server's reader) sees it, with the CRC its directory states. */
async function entriesOf(file: Blob): Promise<{ name: string; bytes: Buffer; crc: number }[]> {
  const buffer = Buffer.from(await file.arrayBuffer());
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const entries: { name: string; bytes: Buffer; crc: number }[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          entries.push({ name: entry.fileName, bytes: Buffer.concat(chunks), crc: entry.crc32 });
          zip.readEntry();
        });
      }),
    );
    zip.readEntry();
  });
  return entries;
}

describe('DICOM instances chosen together', () => {
  it('reads the SOP class and series of an instance from its start, whatever follows', async () => {
    const big = new File([dicomInstance('1.2.3', { payload: 300_000 })], 'level-0.dcm');
    expect(await readDicomHeader(big)).toEqual({ sopClassUid: WSI_SOP_CLASS, seriesInstanceUid: '1.2.3' });
    expect(await readDicomHeader(new File(['not DICOM'.repeat(40)], 'fake.dcm'))).toBeNull();
  });

  it('makes one stored zip per series, named after its first file, that the server reads back byte for byte', async () => {
    const a = ['slide-2.dcm', 'slide-0.dcm', 'slide-1.dcm'].map(
      (name, index) => new File([dicomInstance('1.2.840.1', { payload: 1000 * (index + 1) })], name),
    );
    const lone = new File([dicomInstance('1.2.840.2')], 'other.dcm');
    const ct = new File([dicomInstance('1.2.840.3', { sopClass: CT_IMAGE })], 'chest.dcm');
    const svs = new File(['II*\0'], 'slide.svs');
    const grouped = await groupDicomSeries([a[0]!, svs, lone, a[1]!, ct, a[2]!]);
    expect(grouped.map((file) => file.name)).toEqual(['slide.svs', 'chest.dcm', 'slide-0.zip', 'other.dcm']);
    expect(grouped[3]).toBe(lone);

    const zip = grouped[2]!;
    expect(await canParse(zip)).toBe(true);
    const entries = await entriesOf(zip);
    expect(entries.map((entry) => entry.name)).toEqual(['slide-0.dcm', 'slide-1.dcm', 'slide-2.dcm']);
    for (const entry of entries) {
      const source = a.find((file) => file.name === entry.name)!;
      expect(entry.bytes).toEqual(Buffer.from(await source.arrayBuffer()));
      expect(entry.crc).toBe(crc32(entry.bytes));
    }
    expect(await crc32Of(a[0]!)).toBe(crc32(Buffer.from(await a[0]!.arrayBuffer())));
  });

  it('lets the parse check name a DICOM that is no whole-slide image', async () => {
    expect(await canParse(new File([dicomInstance('1.2.3')], 'level-0.dcm'))).toBe(true);
    expect(await canParse(new File([dicomInstance('1.2.3', { sopClass: CT_IMAGE })], 'chest.dcm'))).toBe(false);
  });
});
