import { CreateContractRequestSchema, type Contract, type CreateContractRequest } from '@pathology/contract';
import { z } from 'zod';
import { blankToNull } from '../../lib/blank-to-null.ts';

/** The contract form as typed: text inputs hold strings, limits a number or '' (no limit). */
export interface ContractFormValues {
  name: string;
  plan: string;
  startDate: string;
  endDate: string;
  contractorName: string;
  details: string;
  countryCode: string;
  postalCode: string;
  address: string;
  tel: string;
  emergencyContact: string;
  billingContact: string;
  maxOrganizations: number | '';
  storageLimitGb: number | '';
}

export const TEXT_FIELDS = [
  'contractorName',
  'countryCode',
  'postalCode',
  'tel',
  'emergencyContact',
  'billingContact',
] as const;

export function emptyContractForm(today: string): ContractFormValues {
  return {
    name: '',
    plan: 'standard',
    startDate: today,
    endDate: '',
    contractorName: '',
    details: '',
    countryCode: 'JP',
    postalCode: '',
    address: '',
    tel: '',
    emergencyContact: '',
    billingContact: '',
    maxOrganizations: '',
    storageLimitGb: '',
  };
}

export function contractToFormValues(contract: Contract): ContractFormValues {
  const text = (value: string | null) => value ?? '';
  return {
    name: contract.name,
    plan: contract.plan,
    startDate: contract.startDate,
    endDate: text(contract.endDate),
    contractorName: contract.contractorName,
    details: text(contract.details),
    countryCode: text(contract.countryCode),
    postalCode: text(contract.postalCode),
    address: text(contract.address),
    tel: text(contract.tel),
    emergencyContact: text(contract.emergencyContact),
    billingContact: text(contract.billingContact),
    maxOrganizations: contract.maxOrganizations ?? '',
    storageLimitGb: contract.storageLimitGb ?? '',
  };
}

const limit = z.union([z.number(), z.literal('')]);

/** Blanks mean "not set", an empty limit "no limit"; then the contract's own rules and messages. */
export const contractFormSchema = z
  .object({
    name: z.string(),
    plan: z.string(),
    startDate: z.string(),
    endDate: z.string(),
    contractorName: z.string(),
    details: z.string(),
    countryCode: z.string(),
    postalCode: z.string(),
    address: z.string(),
    tel: z.string(),
    emergencyContact: z.string(),
    billingContact: z.string(),
    maxOrganizations: limit,
    storageLimitGb: limit,
  })
  .transform((values): z.input<typeof CreateContractRequestSchema> => ({
    ...values,
    endDate: blankToNull(values.endDate),
    details: blankToNull(values.details),
    countryCode: blankToNull(values.countryCode),
    postalCode: blankToNull(values.postalCode),
    address: blankToNull(values.address),
    tel: blankToNull(values.tel),
    emergencyContact: blankToNull(values.emergencyContact),
    billingContact: blankToNull(values.billingContact),
    maxOrganizations: values.maxOrganizations === '' ? null : values.maxOrganizations,
    storageLimitGb: values.storageLimitGb === '' ? null : values.storageLimitGb,
  }))
  .pipe(CreateContractRequestSchema);

export type ContractFormOutput = CreateContractRequest;
