import {
  badDetectionFeatureMessage,
  DETECTION_MESSAGES,
  MAX_DETECTION_FEATURE_MB,
  MAX_DETECTION_VERTICES,
  MAX_JSON_DEPTH,
  type DetectionImport,
} from '@pathology/contract';
import type { TFunction } from 'i18next';
import { ValidationError } from '../../api/errors.ts';
import { errorText } from '../../i18n/error-text.ts';

const REASONS = [
  'notFeature',
  'badGeometry',
  'outsideImage',
  'badClassification',
  'featureTooManyVertices',
  'featureTooLarge',
] as const;
const FILE_PROBLEMS = [
  'notGeoJson',
  'noFeatures',
  'tooLarge',
  'tooManyFeatures',
  'tooManyVertices',
  'nestedTooDeep',
] as const;
const LIMITS = { vertices: MAX_DETECTION_VERTICES.toLocaleString('en'), megabytes: MAX_DETECTION_FEATURE_MB };

/** Counted from 1 for people, with the file's 0-based index beside it (as the server's message). */
const badFeatureText = (index: number, reason: string, t: TFunction) =>
  t('detections.badFeature', { number: index + 1, index, reason });

/** A refused import in the user's language: which feature and why, or what is wrong with the file. */
export function importErrorText(error: unknown, t: TFunction): string {
  if (error instanceof ValidationError) {
    for (const [field, message] of Object.entries(error.errors)) {
      const index = /^features\[(\d+)\]$/.exec(field)?.[1];
      const reason = REASONS.find((key) => DETECTION_MESSAGES[key] === message);
      if (index !== undefined && reason) {
        return badFeatureText(Number(index), t(`detections.reasons.${reason}`, LIMITS), t);
      }
      const problem = FILE_PROBLEMS.find((key) => DETECTION_MESSAGES[key] === message);
      if (problem) return t(`detections.fileProblems.${problem}`, { max: MAX_JSON_DEPTH });
    }
  }
  return errorText(error, t);
}

/**
 * Why a queued import failed, in the user's language: the first bad feature or the file's problem, as the job
 * recorded them; undefined for a failure that was not the file's (the import may be tried again).
 */
export function importFailureText(error: NonNullable<DetectionImport['error']>, t: TFunction): string | undefined {
  const index = /^features\[(\d+)\]$/.exec(error.field ?? '')?.[1];
  if (index !== undefined) {
    const reason = REASONS.find(
      (key) => badDetectionFeatureMessage(Number(index), DETECTION_MESSAGES[key]) === error.message,
    );
    return badFeatureText(Number(index), reason ? t(`detections.reasons.${reason}`, LIMITS) : error.message, t);
  }
  const problem = FILE_PROBLEMS.find((key) => DETECTION_MESSAGES[key] === error.message);
  if (problem) return t(`detections.fileProblems.${problem}`, { max: MAX_JSON_DEPTH });
  return error.field === null ? undefined : error.message;
}
