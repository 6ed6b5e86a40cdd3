import { WSI_SOP_CLASS } from './dicom-header.ts';

const EXPLICIT_LITTLE = '1.2.840.10008.1.2.1';

/** An even-length UI value, padded with NUL as PS3.5 wants. */
function ui(value: string): Uint8Array {
  return new TextEncoder().encode(value.length % 2 ? `${value}\0` : value);
}

/** One explicit-VR little-endian element with a short (16-bit) length. */
function element(group: number, elementNumber: number, vr: string, value: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + value.length);
  const view = new DataView(out.buffer);
  view.setUint16(0, group, true);
  view.setUint16(2, elementNumber, true);
  out.set(new TextEncoder().encode(vr), 4);
  view.setUint16(6, value.length, true);
  out.set(value, 8);
  return out;
}

/** An OB element: explicit VR with two reserved bytes and a 32-bit length. */
function bytesElement(group: number, elementNumber: number, value: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + value.length);
  const view = new DataView(out.buffer);
  view.setUint16(0, group, true);
  view.setUint16(2, elementNumber, true);
  out.set(new TextEncoder().encode('OB'), 4);
  view.setUint32(8, value.length, true);
  out.set(value, 12);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (out.set(part, at), at + part.length), 0);
  return out;
}

/**
 * The smallest Part 10 file the upload flows read: preamble, DICM, the transfer syntax, then SOP class and series
 * (real slides come from the converters in the server's tests and the browser journey; this checks the reading).
 */
export function dicomInstance(seriesUid: string, options: { sopClass?: string; payload?: number } = {}) {
  const meta = element(0x0002, 0x0010, 'UI', ui(EXPLICIT_LITTLE));
  const groupLength = new Uint8Array(12);
  const view = new DataView(groupLength.buffer);
  view.setUint16(0, 0x0002, true);
  view.setUint16(2, 0x0000, true);
  groupLength.set(new TextEncoder().encode('UL'), 4);
  view.setUint16(6, 4, true);
  view.setUint32(8, meta.length, true);
  const head = new Uint8Array(132);
  head.set(new TextEncoder().encode('DICM'), 128);
  return concat([
    head,
    groupLength,
    meta,
    element(0x0008, 0x0016, 'UI', ui(options.sopClass ?? WSI_SOP_CLASS)),
    element(0x0020, 0x000e, 'UI', ui(seriesUid)),
    // Pixel Data stands for the frames: the reading stops at its header.
    bytesElement(0x7fe0, 0x0010, new Uint8Array(options.payload ?? 2).fill(7)),
  ]);
}
