import {
  CreateOrganizationRequestSchema,
  OrganizationFieldsSchema,
  type Organization,
  type UpdateOrganizationRequest,
} from '@pathology/contract';
import { z } from 'zod';
import { blankToNull } from '../../lib/blank-to-null.ts';

/** The group form as typed: text inputs hold strings, the limit is a number or '' (no limit). */
export interface OrganizationFormValues {
  name: string;
  description: string;
  country: string;
  phone: string;
  postalCode: string;
  address: string;
  contact: string;
  storageLimitGb: number | '';
  predictionEnabled: boolean;
  downloadDrawingsEnabled: boolean;
}

export const EMPTY_ORGANIZATION_FORM: OrganizationFormValues = {
  name: '',
  description: '',
  country: '',
  phone: '',
  postalCode: '',
  address: '',
  contact: '',
  storageLimitGb: '',
  predictionEnabled: false,
  downloadDrawingsEnabled: false,
};

/** The form's own check: the contract's rules, with blanks meaning "not set" and '' meaning "no limit". */
export const organizationFormSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    country: z.string(),
    phone: z.string(),
    postalCode: z.string(),
    address: z.string(),
    contact: z.string(),
    storageLimitGb: z.union([z.number(), z.literal('')]),
    predictionEnabled: z.boolean(),
    downloadDrawingsEnabled: z.boolean(),
  })
  .transform((values) => ({
    ...values,
    description: blankToNull(values.description),
    country: blankToNull(values.country),
    phone: blankToNull(values.phone),
    postalCode: blankToNull(values.postalCode),
    address: blankToNull(values.address),
    contact: blankToNull(values.contact),
    storageLimitGb: values.storageLimitGb === '' ? null : values.storageLimitGb,
  }))
  .pipe(OrganizationFieldsSchema);

export type OrganizationFormOutput = z.output<typeof organizationFormSchema>;

export function organizationToFormValues(organization: Organization): OrganizationFormValues {
  return {
    name: organization.name,
    description: organization.description ?? '',
    country: organization.country ?? '',
    phone: organization.phone ?? '',
    postalCode: organization.postalCode ?? '',
    address: organization.address ?? '',
    contact: organization.contact ?? '',
    storageLimitGb: organization.storageLimitGb ?? '',
    predictionEnabled: organization.predictionEnabled,
    downloadDrawingsEnabled: organization.downloadDrawingsEnabled,
  };
}

const OWNER_FIELDS = ['storageLimitGb', 'predictionEnabled', 'downloadDrawingsEnabled'] as const;

/** Only what changed, and never the contract owner's fields for someone who may not set them (the server would refuse). */
export function organizationPatch(
  values: OrganizationFormOutput,
  saved: Organization,
  canSetLimits: boolean,
): UpdateOrganizationRequest {
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (!canSetLimits && (OWNER_FIELDS as readonly string[]).includes(key)) continue;
    if (saved[key as keyof Organization] !== value) patch[key] = value;
  }
  return patch;
}

/** The "Create group" form as typed. */
export interface CreateOrganizationFormValues {
  name: string;
  contractId: string;
  description: string;
  storageLimitGb: number | '';
}

export const createOrganizationFormSchema = z
  .object({
    name: z.string(),
    contractId: z.string(),
    description: z.string(),
    storageLimitGb: z.union([z.number(), z.literal('')]),
  })
  .transform((values): z.input<typeof CreateOrganizationRequestSchema> => ({
    ...values,
    description: blankToNull(values.description),
    storageLimitGb: values.storageLimitGb === '' ? null : values.storageLimitGb,
  }))
  .pipe(CreateOrganizationRequestSchema);
