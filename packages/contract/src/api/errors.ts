import { z } from 'zod';

/** Every error response: a message, and for validation failures the message of each field. */
export const ErrorResponseSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** Deepest nesting of arrays and objects a JSON body may have; the contract's deepest bodies nest under ten. */
export const MAX_JSON_DEPTH = 64;

/** Messages with the spec's exact wording; the web translates them by key. */
export const MESSAGES = {
  unexpectedError: 'Unexpected error',
  envRequired: 'Env. variable is required',
  notFound: 'Not found',
  /** 503 with Retry-After while the database cannot be reached (restarting, failing over). */
  serviceUnavailable: 'The service is briefly unavailable. Please try again in a few seconds.',
  forbidden: 'Forbidden',
  unauthorized: 'Unauthorized',
  validationFailed: 'Validation failed',
  fieldRequired: 'This field is required',
  fieldEmail: 'This field must be a valid email address',
  /** 422: PostgreSQL text cannot hold the NUL character (U+0000). */
  fieldNulCharacter: 'This field must not contain the NUL character',
  /** 422 before the body is parsed: deeper nesting than any request needs, which would exhaust the stack. */
  bodyNestedTooDeep: `Arrays and objects in the body must not be nested more than ${MAX_JSON_DEPTH} levels deep`,
  fieldMaxLength: 'This field must be at most ${max} characters',
  /** 413 before any byte is stored: the group's storage limit (part 3 §3) would be passed. */
  storageLimitExceeded: "This upload would exceed the group's storage limit.",
  /** 507 when the disk or bucket the files go to is full; what was received of a resumable upload is kept. */
  storageFull: 'The storage is full, so the file could not be saved. Please ask an administrator to free space.',
  /** 503 with Retry-After when the storage cannot be written (read-only, failing disk, S3 unreachable). */
  storageUnavailable: 'The storage is unavailable, so the file could not be saved. Please try again later.',
  organizationLimitReached: 'The contract has reached its limit of groups.',
  organizationSettingsOwnerOnly:
    "Only the contract's proprietors can change the storage limit and the AI and drawing-download settings.",
  organizationHasCases: 'The group still has cases. Delete it with everything in it, or move the cases first.',
  alreadyMember: 'This person is already a member of the group.',
  notInvited: 'There is no pending invitation for this address.',
  contractHasGroups: 'The contract still has groups. Delete them first.',
  endDateBeforeStart: 'The end date must not be before the start date',
  /** 422 on a drawing: a point further past the image's edges, or a radius longer, than the image's larger side. */
  drawingOutsideImage: "The drawing reaches too far outside the image: keep it within the image's size of its edges.",
  /** 422 on an image alignment: both ends name the same image. */
  alignmentSameImage: 'An image cannot be aligned with itself.',
  /** 422 on a region or point of a query (detections): further past the image's edges than its larger side. */
  positionOutsideImage: "The position lies too far outside the image: keep it within the image's size of its edges.",
  /** 422 on an image alignment: a point further past its image's edges than the image's larger side. */
  alignmentPointOutsideImage:
    "A point lies too far outside its image: keep the points within the image's size of its edges.",
  /** 422 on an image alignment: points that give no transform (on top of each other, or three on one line). */
  alignmentPointsDegenerate:
    'The points must lie at least a pixel apart on each image, and three points must not lie on one line.',
} as const;
export type MessageKey = keyof typeof MESSAGES;
