import { DETECTION_MESSAGES } from '@pathology/contract';
import type { TFunction } from 'i18next';
import { ValidationError } from '../../api/errors.ts';
import { errorText } from '../../i18n/error-text.ts';

const REASONS = ['notFeature', 'badGeometry', 'outsideImage', 'badClassification'] as const;
const FILE_PROBLEMS = ['notGeoJson', 'noFeatures', 'tooLarge', 'tooManyFeatures'] as const;

/** A refused import in the user's language: which feature and why, or what is wrong with the file. */
export function importErrorText(error: unknown, t: TFunction): string {
  if (error instanceof ValidationError) {
    for (const [field, message] of Object.entries(error.errors)) {
      const index = /^features\[(\d+)\]$/.exec(field)?.[1];
      const reason = REASONS.find((key) => DETECTION_MESSAGES[key] === message);
      if (index !== undefined && reason) {
        return t('detections.badFeature', { index: Number(index), reason: t(`detections.reasons.${reason}`) });
      }
      const problem = FILE_PROBLEMS.find((key) => DETECTION_MESSAGES[key] === message);
      if (problem) return t(`detections.fileProblems.${problem}`);
    }
  }
  return errorText(error, t);
}
