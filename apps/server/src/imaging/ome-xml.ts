/** What we use from an OME-XML block (first Image only: later Images of an OME file are label/macro series). */
export interface OmeMetadata {
  sizeX: number;
  sizeY: number;
  sizeZ: number;
  sizeC: number;
  sizeT: number;
  dimensionOrder: string;
  pixelType: string | null;
  /** Physical pixel size in centimetres, when given. */
  pixelSizeCm: { x: number; y: number } | null;
  planes: OmePlane[];
  nominalMagnification: number | null;
  instrument: string | null;
  acquisitionDate: Date | null;
}

export interface OmePlane {
  theZ: number;
  theC: number;
  theT: number;
  positionZ: number | null;
  positionZUnit: string | null;
}

const CM_PER_UNIT: Record<string, number> = {
  m: 100,
  cm: 1,
  mm: 0.1,
  µm: 1e-4,
  um: 1e-4,
  μm: 1e-4,
  nm: 1e-7,
  pm: 1e-10,
  Å: 1e-8,
};

// OME-XML is machine-written with a fixed shape; reading a handful of attributes with patterns
// avoids a full XML parser dependency for what is never a security boundary (values are only numbers and labels).
function elements(xml: string, name: string): Array<{ attributes: Map<string, string>; body: string }> {
  const pattern = new RegExp(`<(?:\\w+:)?${name}\\b([^>]*?)(?:/>|>([\\s\\S]*?)</(?:\\w+:)?${name}>)`, 'g');
  return [...xml.matchAll(pattern)].map((match) => ({
    attributes: attributesOf(match[1] ?? ''),
    body: match[2] ?? '',
  }));
}

function attributesOf(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of text.matchAll(/([\w:.-]+)\s*=\s*"([^"]*)"/g))
    attributes.set(match[1] ?? '', decodeEntities(match[2] ?? ''));
  return attributes;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function numberOrNull(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

export function isOmeXml(description: string | null): description is string {
  return description !== null && /<(?:\w+:)?OME\b/.test(description) && description.includes('<Pixels');
}

export function parseOmeXml(xml: string): OmeMetadata | null {
  const image = elements(xml, 'Image')[0];
  const pixels = image && elements(image.body, 'Pixels')[0];
  if (!image || !pixels) return null;
  const at = pixels.attributes;
  const size = (key: string) => Math.max(1, numberOrNull(at.get(key)) ?? 1);
  const sizeX = numberOrNull(at.get('SizeX'));
  const sizeY = numberOrNull(at.get('SizeY'));
  if (sizeX === null || sizeY === null) return null;

  const physicalX = numberOrNull(at.get('PhysicalSizeX'));
  const physicalY = numberOrNull(at.get('PhysicalSizeY'));
  const cmX = CM_PER_UNIT[at.get('PhysicalSizeXUnit') ?? 'µm'];
  const cmY = CM_PER_UNIT[at.get('PhysicalSizeYUnit') ?? 'µm'];
  const pixelSizeCm =
    physicalX && physicalY && physicalX > 0 && physicalY > 0 && cmX && cmY
      ? { x: physicalX * cmX, y: physicalY * cmY }
      : null;

  const planes = elements(pixels.body, 'Plane').map(({ attributes }) => ({
    theZ: numberOrNull(attributes.get('TheZ')) ?? 0,
    theC: numberOrNull(attributes.get('TheC')) ?? 0,
    theT: numberOrNull(attributes.get('TheT')) ?? 0,
    positionZ: numberOrNull(attributes.get('PositionZ')),
    positionZUnit: attributes.get('PositionZUnit') ?? (attributes.has('PositionZ') ? 'reference frame' : null),
  }));

  const objectiveId = elements(image.body, 'ObjectiveSettings')[0]?.attributes.get('ID');
  const objectives = elements(xml, 'Objective');
  const objective = objectives.find((o) => o.attributes.get('ID') === objectiveId) ?? objectives[0];
  const microscope = elements(xml, 'Microscope')[0]?.attributes;
  const instrument = [microscope?.get('Manufacturer'), microscope?.get('Model')].filter(Boolean).join(' ');
  const acquired = /<(?:\w+:)?AcquisitionDate>([^<]+)</.exec(image.body)?.[1];
  const acquisitionDate = acquired ? new Date(acquired.trim()) : null;

  return {
    sizeX,
    sizeY,
    sizeZ: size('SizeZ'),
    sizeC: size('SizeC'),
    sizeT: size('SizeT'),
    dimensionOrder: at.get('DimensionOrder') ?? 'XYZCT',
    pixelType: at.get('Type') ?? null,
    pixelSizeCm,
    planes,
    nominalMagnification: numberOrNull(objective?.attributes.get('NominalMagnification')),
    instrument: instrument || null,
    acquisitionDate: acquisitionDate && !Number.isNaN(acquisitionDate.getTime()) ? acquisitionDate : null,
  };
}

/** IFD holding plane (z, c, t): OME stores planes in DimensionOrder, fastest-varying after XY first. */
export function omeIfdIndex(ome: OmeMetadata, z: number, c: number, t: number): number {
  const order = ome.dimensionOrder.slice(2).split('');
  const sizes: Record<string, number> = { Z: ome.sizeZ, C: ome.sizeC, T: ome.sizeT };
  const coordinates: Record<string, number> = { Z: z, C: c, T: t };
  let index = 0;
  let stride = 1;
  for (const axis of order) {
    index += (coordinates[axis] ?? 0) * stride;
    stride *= sizes[axis] ?? 1;
  }
  return index;
}
