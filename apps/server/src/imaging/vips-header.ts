/** Fields printed by `vipsheader -a`: `name: value`, where a value may continue on following lines. */
export type VipsHeader = Map<string, string>;

// A continuation line of a multi-line value (e.g. an Aperio ImageDescription) never starts with an identifier
// followed by ": ", because OpenSlide property names are `namespace.Name` and vips' own fields are lowercase words.
const FIELD = /^([A-Za-z][\w-]*(?:\.[^:\n]*)?): (.*)$/;

export function parseVipsHeader(text: string): VipsHeader {
  const fields: VipsHeader = new Map();
  let current: string | null = null;
  // Aperio descriptions contain CRLF line ends; a stray CR would stop a field line from matching.
  for (const line of text.split(/\r?\n/)) {
    const match = FIELD.exec(line);
    if (match?.[1] !== undefined) {
      current = match[1];
      fields.set(current, match[2] ?? '');
    } else if (current !== null && line !== '') {
      fields.set(current, `${fields.get(current)}\n${line}`);
    }
  }
  return fields;
}

export function headerNumber(header: VipsHeader, key: string): number | null {
  const value = header.get(key);
  if (value === undefined || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}
