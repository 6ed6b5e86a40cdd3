import { TRANSFER_SYNTAX, type DicomAttribute, type DicomDataset, type Vr } from '../../imaging/dicom-write.ts';
import { APP_VERSION } from '../../version.ts';
import { dicomUids } from './dicom-uids.ts';

export const VL_WHOLE_SLIDE_MICROSCOPY_IMAGE = '1.2.840.10008.5.1.4.1.1.77.1.6';

/** What the study holds: the case, and only what the case itself holds. */
export interface StudyFacts {
  caseId: string;
  caseNumber: string;
  organ: string | null;
  specimenType: string | null;
}

/** What the series holds: the slide. */
export interface SlideFacts {
  imageId: string;
  displayName: string;
  /** When the slide was scanned, else when it was uploaded. */
  acquiredAt: Date;
  magnification: number | null;
  /** Full level's width and height in mm; null without a resolution. */
  imagedSize: { width: number; height: number } | null;
}

export type ImageFlavour = 'VOLUME' | 'LABEL' | 'OVERVIEW' | 'THUMBNAIL';

/** One instance of the series: a pyramid level or an associated picture. */
export interface InstanceFacts {
  /** Names the instance in its UID and in the export's file names: "level-0", "label", "overview", "thumbnail". */
  part: string;
  flavour: ImageFlavour;
  /** A pyramid level below the full one, or a picture made smaller than what was scanned. */
  resampled: boolean;
  instanceNumber: number;
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  photometric: 'RGB' | 'YBR_FULL_422' | 'MONOCHROME2';
  /** Pixel spacing in mm, rows then columns; null when the picture has no known scale (label, overview). */
  spacing: [number, number] | null;
  /** Bytes of all its JPEG frames, for the compression ratio. */
  compressedBytes: number;
}

export function frameCount(instance: Pick<InstanceFacts, 'width' | 'height' | 'tileWidth' | 'tileHeight'>): number {
  return Math.ceil(instance.width / instance.tileWidth) * Math.ceil(instance.height / instance.tileHeight);
}

const EQUIPMENT = 'pathology-slides';
/**
 * The section's thickness is known to no one here, but the standard wants a value above zero for the slice
 * thickness (mm) and the imaged depth (µm): 1 µm, named as nominal in the README.
 */
const NOMINAL_DEPTH_MM = 0.001;

function value(vr: Vr, ...values: (string | number | null | undefined)[]): DicomAttribute {
  const present = values.filter((entry): entry is string | number => entry != null && entry !== '');
  return present.length === 0 ? { vr } : { vr, values: present };
}

function sequence(...items: DicomDataset[]): DicomAttribute {
  return { vr: 'SQ', items };
}

function code(codeValue: string, scheme: string, meaning: string): DicomDataset {
  return {
    '00080100': value('SH', codeValue),
    '00080102': value('SH', scheme),
    '00080104': value('LO', meaning),
  };
}

const pad = (number: number, digits = 2) => String(number).padStart(digits, '0');
const dicomDate = (at: Date) => `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}`;
const dicomTime = (at: Date) => `${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}`;

/** LO values hold 64 characters and no backslash (the value separator). */
function longString(text: string): string {
  return text.replace(/\\/g, '/').slice(0, 64);
}

/** Patient and study: from the case alone. The case number is the accession number, and the patient's id. */
export function studyAttributes(study: StudyFacts): DicomDataset {
  const description = [study.organ, study.specimenType].filter((part) => part != null && part !== '').join(', ');
  return {
    '00080020': value('DA'),
    '00080030': value('TM'),
    '00080050': value('SH', study.caseNumber),
    '00080090': value('PN'),
    '00081030': value('LO', description === '' ? null : longString(description)),
    // An empty patient id would merge every case into one patient in an archive that keys on it.
    '00100010': value('PN'),
    '00100020': value('LO', longString(study.caseNumber)),
    '00100030': value('DA'),
    '00100040': value('CS'),
    '0020000D': value('UI', dicomUids.study(study.caseId)),
    '00200010': value('SH', study.caseNumber.length <= 16 ? study.caseNumber : null),
  };
}

/** Series, equipment, frame of reference and specimen: one slide, the same in every instance of it. */
export function seriesAttributes(study: StudyFacts, slide: SlideFacts): DicomDataset {
  const specimen = [
    study.organ && `organ: ${study.organ}`,
    study.specimenType && `specimen type: ${study.specimenType}`,
  ]
    .filter(Boolean)
    .join('; ');
  return {
    '00080060': value('CS', 'SM'),
    '00080070': value('LO', EQUIPMENT),
    '0008103E': value('LO', longString(slide.displayName)),
    '00081090': value('LO', EQUIPMENT),
    '00181000': value('LO', EQUIPMENT),
    '00181020': value('LO', APP_VERSION),
    '0020000E': value('UI', dicomUids.series(slide.imageId)),
    '00200011': value('IS', 1),
    '00200052': value('UI', dicomUids.frameOfReference(slide.imageId)),
    '00201040': value('LO', 'SLIDE_CORNER'),
    '00400512': value('LO', slide.imageId),
    '00400513': sequence(),
    '00400518': sequence(code('433466003', 'SCT', 'Microscope slide')),
    '00400555': sequence(),
    '00400560': sequence({
      '00400551': value('LO', longString(study.caseNumber)),
      '00400554': value('UI', dicomUids.specimen(slide.imageId)),
      '00400562': sequence(),
      '00400600': value('LO', specimen === '' ? null : longString(specimen)),
      '00400610': sequence(),
    }),
  };
}

/** The one optical path: brightfield, in sRGB for colour pictures (a grey one has no colour profile). */
function opticalPath(slide: SlideFacts, icc: Buffer | null): DicomDataset {
  return {
    ...(icc == null ? {} : { '00282000': { vr: 'OB', bytes: icc }, '00282002': value('CS', 'SRGB') }),
    '00480106': value('SH', '1'),
    '00480108': sequence(code('414298005', 'SCT', 'Full Spectrum')),
    '00480112': value('DS', slide.magnification),
    '00220016': sequence(code('111744', 'DCM', 'Brightfield illumination')),
  };
}

/**
 * The data set of one instance, without Pixel Data: the same attributes go into the Part 10 file and, as DICOM
 * JSON, into the WADO-RS metadata. TILED_FULL: frames run row by row over the total pixel matrix, so no
 * per-frame positions are needed.
 */
export function instanceAttributes(
  study: StudyFacts,
  slide: SlideFacts,
  instance: InstanceFacts,
  icc: Buffer,
): DicomDataset {
  const imageType = ['DERIVED', 'PRIMARY', instance.flavour, instance.resampled ? 'RESAMPLED' : 'NONE'];
  const frames = frameCount(instance);
  const uncompressed = instance.width * instance.height * (instance.photometric === 'MONOCHROME2' ? 1 : 3);
  const hasLabel = instance.flavour === 'LABEL' || instance.flavour === 'OVERVIEW';
  const volumeLike = instance.flavour === 'VOLUME' || instance.flavour === 'THUMBNAIL';
  const grey = instance.photometric === 'MONOCHROME2';
  const dataset: DicomDataset = {
    ...studyAttributes(study),
    ...seriesAttributes(study, slide),
    '00080005': value('CS', 'ISO_IR 192'),
    '00080008': value('CS', ...imageType),
    '00080016': value('UI', VL_WHOLE_SLIDE_MICROSCOPY_IMAGE),
    '00080018': value('UI', dicomUids.instance(slide.imageId, instance.part)),
    '00080023': value('DA', dicomDate(slide.acquiredAt)),
    '0008002A': value('DT', `${dicomDate(slide.acquiredAt)}${dicomTime(slide.acquiredAt)}`),
    '00080033': value('TM', dicomTime(slide.acquiredAt)),
    '00089206': value('CS', 'VOLUME'),
    '00200013': value('IS', instance.instanceNumber),
    '00209221': sequence({ '00209164': value('UI', dicomUids.dimensionOrganization(slide.imageId)) }),
    '00209311': value('CS', 'TILED_FULL'),
    '00280002': value('US', grey ? 1 : 3),
    '00280004': value('CS', instance.photometric),
    '00280008': value('IS', frames),
    '00280010': value('US', instance.tileHeight),
    '00280011': value('US', instance.tileWidth),
    '00280100': value('US', 8),
    '00280101': value('US', 8),
    '00280102': value('US', 7),
    '00280103': value('US', 0),
    '00282110': value('CS', '01'),
    '00282112': value('DS', Math.round((uncompressed / Math.max(1, instance.compressedBytes)) * 100) / 100),
    '00282114': value('CS', 'ISO_10918_1'),
    '00280301': value('CS', hasLabel ? 'YES' : 'NO'),
    '00480006': value('UL', instance.width),
    '00480007': value('UL', instance.height),
    '00480008': sequence({ '0040072A': value('DS', 0), '0040073A': value('DS', 0) }),
    '00480010': value('CS', hasLabel ? 'YES' : 'NO'),
    '00480011': value('CS', 'AUTO'),
    '00480012': value('CS', 'NO'),
    '00480102': value('DS', 0, -1, 0, -1, 0, 0),
    '00480105': sequence(opticalPath(slide, grey ? null : icc)),
    '00480302': value('UL', 1),
    '00480303': value('UL', 1),
    '52009229': sequence({
      '00289110': sequence(
        instance.spacing == null
          ? {}
          : { '00180050': value('DS', NOMINAL_DEPTH_MM), '00280030': value('DS', ...instance.spacing) },
      ),
      '00400710': sequence({ '00089007': value('CS', ...imageType) }),
      '00480207': sequence({ '00480106': value('SH', '1') }),
    }),
  };
  if (volumeLike && slide.imagedSize != null) {
    dataset['00480001'] = value('FL', slide.imagedSize.width);
    dataset['00480002'] = value('FL', slide.imagedSize.height);
    dataset['00480003'] = value('FL', NOMINAL_DEPTH_MM * 1000);
  }
  if (grey) {
    dataset['20500020'] = value('CS', 'IDENTITY');
    dataset['00281052'] = value('DS', 0);
    dataset['00281053'] = value('DS', 1);
  } else dataset['00280006'] = value('US', 0);
  if (instance.flavour === 'LABEL') {
    dataset['22000002'] = value('UT');
    dataset['22000005'] = value('LT');
  }
  return dataset;
}

/** The transfer syntaxes a client may ask for: the stored JPEG frames go out as they are. */
export const AVAILABLE_TRANSFER_SYNTAX = TRANSFER_SYNTAX.jpegBaseline;
