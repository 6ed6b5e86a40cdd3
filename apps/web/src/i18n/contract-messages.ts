import {
  COLOR_MESSAGES,
  DRAWING_MESSAGES,
  GRANTEE_MESSAGES,
  IMAGE_MESSAGES,
  LABEL_MESSAGES,
  MAX_DRAWING_VERTICES,
  MESSAGES,
  NOTICE_MESSAGES,
  ATTACHMENT_MESSAGES,
  SCREEN_SETTING_MESSAGES,
} from '@pathology/contract';
import type { ParseKeys, TFunction } from 'i18next';

/** A contract message and its text's key; `${name}` parts of the message are handed to the text as {{name}}. */
type Entry = readonly [message: string, key: ParseKeys, values?: Record<string, string>];

/** Messages with the spec's fixed wording (server answers and form checks), shown in the user's language. */
const ENTRIES: readonly Entry[] = [
  [MESSAGES.unexpectedError, 'serverMessages.unexpectedError'],
  [MESSAGES.validationFailed, 'serverMessages.validationFailed'],
  [MESSAGES.notFound, 'serverMessages.notFound'],
  [MESSAGES.serviceUnavailable, 'serverMessages.serviceUnavailable'],
  [MESSAGES.forbidden, 'serverMessages.forbidden'],
  [MESSAGES.unauthorized, 'serverMessages.unauthorized'],
  [MESSAGES.fieldRequired, 'serverMessages.fieldRequired'],
  [MESSAGES.fieldEmail, 'serverMessages.fieldEmail'],
  [MESSAGES.fieldMaxLength, 'serverMessages.fieldMaxLength'],
  [MESSAGES.fieldNulCharacter, 'serverMessages.fieldNulCharacter'],
  [MESSAGES.bodyNestedTooDeep, 'serverMessages.bodyNestedTooDeep'],
  [MESSAGES.storageLimitExceeded, 'serverMessages.storageLimitExceeded'],
  [MESSAGES.storageFull, 'serverMessages.storageFull'],
  [MESSAGES.storageUnavailable, 'serverMessages.storageUnavailable'],
  [MESSAGES.organizationLimitReached, 'serverMessages.organizationLimitReached'],
  [MESSAGES.organizationSettingsOwnerOnly, 'serverMessages.organizationSettingsOwnerOnly'],
  [MESSAGES.organizationHasCases, 'serverMessages.organizationHasCases'],
  [MESSAGES.alreadyMember, 'serverMessages.alreadyMember'],
  [MESSAGES.notInvited, 'serverMessages.notInvited'],
  [MESSAGES.contractHasGroups, 'serverMessages.contractHasGroups'],
  [MESSAGES.endDateBeforeStart, 'serverMessages.endDateBeforeStart'],
  [MESSAGES.drawingOutsideImage, 'serverMessages.drawingOutsideImage'],
  [MESSAGES.alignmentSameImage, 'serverMessages.alignmentSameImage'],
  [MESSAGES.positionOutsideImage, 'serverMessages.positionOutsideImage'],
  [MESSAGES.alignmentPointOutsideImage, 'serverMessages.alignmentPointOutsideImage'],
  [MESSAGES.alignmentPointsDegenerate, 'serverMessages.alignmentPointsDegenerate'],
  [NOTICE_MESSAGES.titleRequired, 'formMessages.notice.titleRequired'],
  [NOTICE_MESSAGES.overviewRequired, 'formMessages.notice.overviewRequired'],
  [NOTICE_MESSAGES.bodyRequired, 'formMessages.notice.bodyRequired'],
  [NOTICE_MESSAGES.dateRequired, 'formMessages.notice.dateRequired'],
  [NOTICE_MESSAGES.hourRequired, 'formMessages.notice.hourRequired'],
  [NOTICE_MESSAGES.minuteRequired, 'formMessages.notice.minuteRequired'],
  [NOTICE_MESSAGES.rangeRequired, 'formMessages.notice.rangeRequired'],
  [NOTICE_MESSAGES.closeBeforeOpen, 'formMessages.notice.closeBeforeOpen'],
  [COLOR_MESSAGES.wholeNumber, 'formMessages.color.wholeNumber'],
  [COLOR_MESSAGES.atLeast, 'formMessages.color.atLeast'],
  [COLOR_MESSAGES.atMost, 'formMessages.color.atMost'],
  [COLOR_MESSAGES.presetNameRequired, 'formMessages.color.presetNameRequired'],
  [COLOR_MESSAGES.presetNameTooLong, 'formMessages.color.presetNameTooLong'],
  [COLOR_MESSAGES.caseIdInvalid, 'formMessages.color.caseIdInvalid'],
  [SCREEN_SETTING_MESSAGES.thenBySameField, 'formMessages.thenBySameField'],
  [LABEL_MESSAGES.badName, 'formMessages.label.badName'],
  [LABEL_MESSAGES.unknownPublic, 'formMessages.label.unknownPublic'],
  [DRAWING_MESSAGES.ringNotClosed, 'formMessages.drawing.ringNotClosed'],
  [DRAWING_MESSAGES.ringTooShort, 'formMessages.drawing.ringTooShort'],
  [DRAWING_MESSAGES.coordinateNotFinite, 'formMessages.drawing.coordinateNotFinite'],
  [DRAWING_MESSAGES.wrongGeometry, 'formMessages.drawing.wrongGeometry'],
  [DRAWING_MESSAGES.twoPoints, 'formMessages.drawing.twoPoints'],
  [DRAWING_MESSAGES.lineColorInvalid, 'formMessages.drawing.lineColorInvalid'],
  [DRAWING_MESSAGES.tooManyVertices, 'formMessages.drawing.tooManyVertices', { max: MAX_DRAWING_VERTICES.toLocaleString('en') }],
  [IMAGE_MESSAGES.invalidMetadata, 'formMessages.image.invalidMetadata'],
  [IMAGE_MESSAGES.metadataNotJson, 'formMessages.image.metadataNotJson'],
  [IMAGE_MESSAGES.invalidFilename, 'uploads.errors.invalidFilename'],
  [ATTACHMENT_MESSAGES.forbiddenCharacters, 'attachments.messages.forbiddenCharacters'],
  [GRANTEE_MESSAGES.chooseGroup, 'caseDetail.permissions.chooseGroup'],
];

const PLACEHOLDER = /\\\$\\\{(\w+)\\\}/g;

/** "Must be at least ${min}" → /^Must be at least (?<min>…)$/: the numbers the message was made with. */
function patternOf(template: string): RegExp {
  const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(PLACEHOLDER, '(?<$1>-?\\d+(?:\\.\\d+)?)')}$`);
}

const exact = new Map<string, Entry>(ENTRIES.filter(([message]) => !message.includes('${')).map((e) => [e[0], e]));
const templates = ENTRIES.filter(([message]) => message.includes('${')).map(
  (entry) => [patternOf(entry[0]), entry] as const,
);

/** The text of a contract message in the user's language; undefined for a message the contract does not fix. */
export function contractMessageText(message: string, t: TFunction): string | undefined {
  // The keys come from a table, so t's overloads cannot tell which take values; each text takes what its message has.
  const translate = t as unknown as (key: ParseKeys, values: Record<string, string>) => string;
  const entry = exact.get(message);
  if (entry) return translate(entry[1], entry[2] ?? {});
  for (const [pattern, [, key]] of templates) {
    const match = pattern.exec(message);
    if (match) return translate(key, { ...match.groups });
  }
  return undefined;
}
