import {
  ASSOCIATED_IMAGE_KINDS,
  DRAWING_VISIBILITIES,
  GRANT_RESOURCE,
  GRANTEE_TYPES,
  GROUP_ROLES,
  IMAGE_STATUSES,
  LABEL_VISIBILITY,
  PREDICTION_STATUSES,
  RESOLUTION_UNITS,
  SCREEN_SETTING_TYPES,
  SPECIMEN_TYPES,
  UPLOAD_KINDS,
  UPLOAD_STATUSES,
} from '@pathology/contract';
import { pgEnum } from 'drizzle-orm/pg-core';

// Value sets come from the contract so the API, the web and the database can never disagree.
export const groupRole = pgEnum('group_role', GROUP_ROLES);
export const granteeType = pgEnum('grantee_type', GRANTEE_TYPES);
export const grantResourceType = pgEnum('grant_resource_type', GRANT_RESOURCE);
export const specimenType = pgEnum('specimen_type', SPECIMEN_TYPES);
export const imageStatus = pgEnum('image_status', IMAGE_STATUSES);
export const resolutionUnit = pgEnum('resolution_unit', RESOLUTION_UNITS);
export const associatedImageKind = pgEnum('associated_image_kind', ASSOCIATED_IMAGE_KINDS);
export const labelVisibility = pgEnum('label_visibility', LABEL_VISIBILITY);
export const contentVisibility = pgEnum('content_visibility', DRAWING_VISIBILITIES);
export const predictionStatus = pgEnum('prediction_status', PREDICTION_STATUSES);
export const screenSettingType = pgEnum('screen_setting_type', SCREEN_SETTING_TYPES);
export const uploadKind = pgEnum('upload_kind', UPLOAD_KINDS);
export const uploadStatus = pgEnum('upload_status', UPLOAD_STATUSES);
