import { DRAWING_MESSAGES } from '../domain/drawings.ts';
import { MESSAGES } from './errors.ts';
import { GRANTEE_MESSAGES } from './grants.ts';
import { IMAGE_MESSAGES } from './images.ts';
import { NOTICE_MESSAGES } from './notices.ts';

/**
 * Validation messages a walk of the schemas cannot see: added by refinements and transforms, or checked by a form
 * alone (the notice form's hour, minute and range). The web shows each of these, and every message the schemas carry,
 * in the user's language.
 */
export const UNWALKED_VALIDATION_MESSAGES: readonly string[] = [
  NOTICE_MESSAGES.hourRequired,
  NOTICE_MESSAGES.minuteRequired,
  NOTICE_MESSAGES.rangeRequired,
  GRANTEE_MESSAGES.chooseGroup,
  MESSAGES.fieldEmail,
  MESSAGES.endDateBeforeStart,
  DRAWING_MESSAGES.tooManyVertices,
  DRAWING_MESSAGES.wrongGeometry,
  DRAWING_MESSAGES.twoPoints,
  IMAGE_MESSAGES.invalidMetadata,
  IMAGE_MESSAGES.metadataNotJson,
];
