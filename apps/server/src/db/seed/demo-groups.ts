import { DEFAULT_COLOR_SETTINGS, type ContractPlan, type GroupRole } from '@pathology/contract';
import {
  colorPresets,
  contractProprietors,
  contracts,
  memberships,
  organizationPartners,
  organizations,
} from '../schema/index.ts';
import type { DemoAccountIds, DemoAccountKey } from './demo-accounts.ts';
import type { DbTransaction } from './types.ts';

/** Which case templates a group draws from: its speciality shapes its case mix. */
export type CaseKind = 'general' | 'dermatology' | 'cytology' | 'autopsy';

/** How a laboratory numbers its cases; every lab has its own habit. */
export type NumberingStyle = 'standard' | 'hospital-prefix' | 'research';

const CONTRACTS = {
  sakura: {
    name: 'Sakura Medical Group',
    plan: 'enterprise',
    startDate: '2025-04-01',
    endDate: '2028-03-31',
    contractorName: 'Sakura Medical Group Co., Ltd.',
    details: 'Three hospitals sharing digital pathology; AI prediction for breast, GI and cytology.',
    countryCode: 'JP',
    postalCode: '100-0005',
    address: '1-1 Marunouchi, Chiyoda-ku, Tokyo',
    tel: '+81 3-0000-1000',
    emergencyContact: 'IT duty desk +81 3-0000-1099',
    billingContact: 'accounts@sakura-medical.example',
    maxOrganizations: 5,
    storageLimitGb: 2000,
  },
  provider: {
    name: 'PathoLink Services',
    plan: 'provider',
    startDate: '2024-10-01',
    endDate: null,
    contractorName: 'PathoLink Services Inc.',
    details: 'Provider contract: the support group and partner laboratories hosted by the provider.',
    countryCode: 'JP',
    postalCode: '530-0001',
    address: '2-2 Umeda, Kita-ku, Osaka',
    tel: '+81 6-0000-2000',
    emergencyContact: 'support@patholink.example',
    billingContact: 'billing@patholink.example',
    maxOrganizations: null,
    storageLimitGb: null,
  },
  // Seeded plans are ones the UI names in both languages.
} as const satisfies Record<string, { plan: ContractPlan; [field: string]: unknown }>;

export type DemoContractKey = keyof typeof CONTRACTS;

interface GroupDefinition {
  contract: DemoContractKey;
  name: string;
  description: string;
  caseKinds: readonly CaseKind[];
  numbering: NumberingStyle;
  /** Used by hospital-prefix and research numbering. */
  prefix: string;
  caseCount: number;
  publicShare: number;
  storageLimitGb?: number;
  predictionEnabled?: boolean;
  downloadDrawingsEnabled?: boolean;
  isProvider?: boolean;
  drawingCreationDenied?: boolean;
  aiAgreementSkipped?: boolean;
}

export const DEMO_GROUPS = {
  central: {
    contract: 'sakura',
    name: 'Sakura Central Hospital Pathology',
    description: 'Surgical pathology and biopsy service of the main hospital.',
    caseKinds: ['general'],
    numbering: 'standard',
    prefix: '',
    caseCount: 9,
    publicShare: 0.1,
    predictionEnabled: true,
    downloadDrawingsEnabled: true,
  },
  university: {
    contract: 'sakura',
    name: 'Sakura University Hospital Diagnostic Pathology',
    description: 'Academic department; teaching collection and consultations.',
    caseKinds: ['general', 'dermatology'],
    numbering: 'hospital-prefix',
    prefix: 'SUH',
    caseCount: 8,
    publicShare: 0.25,
    predictionEnabled: true,
    downloadDrawingsEnabled: true,
    storageLimitGb: 500,
  },
  cytology: {
    contract: 'sakura',
    name: 'Sakura East Clinic Cytology',
    description: 'Gynaecological and urinary cytology, EUS-FNA rapid on-site evaluation.',
    caseKinds: ['cytology'],
    numbering: 'standard',
    prefix: '',
    caseCount: 6,
    publicShare: 0,
    predictionEnabled: true,
    aiAgreementSkipped: true,
  },
  provider: {
    contract: 'provider',
    name: 'PathoLink Support',
    description: "The provider's own group: reference cases for training and support.",
    caseKinds: ['general', 'cytology', 'dermatology'],
    numbering: 'research',
    prefix: 'PLS',
    caseCount: 3,
    publicShare: 1,
    isProvider: true,
    predictionEnabled: true,
    downloadDrawingsEnabled: true,
    aiAgreementSkipped: true,
  },
  northern: {
    contract: 'provider',
    name: 'Northern Regional Hospital Pathology',
    description: 'Community hospital; difficult cases go to Sakura Central for a second opinion.',
    caseKinds: ['general'],
    numbering: 'hospital-prefix',
    prefix: 'NRH',
    caseCount: 6,
    publicShare: 0.1,
    downloadDrawingsEnabled: true,
  },
  harbor: {
    contract: 'provider',
    name: 'Harbor Dermatopathology Clinic',
    description: 'Private dermatopathology practice.',
    caseKinds: ['dermatology'],
    numbering: 'hospital-prefix',
    prefix: 'HD',
    caseCount: 4,
    publicShare: 0,
    drawingCreationDenied: true,
    storageLimitGb: 100,
  },
  research: {
    contract: 'provider',
    name: 'Kita Research Institute',
    description: 'Autopsy and research pathology; slides provided by Northern Regional Hospital.',
    caseKinds: ['autopsy', 'general'],
    numbering: 'research',
    prefix: 'KRI',
    caseCount: 4,
    publicShare: 0.25,
    storageLimitGb: 50,
  },
} as const satisfies Record<string, GroupDefinition>;

export type DemoGroupKey = keyof typeof DEMO_GROUPS;
export type DemoGroupIds = Record<DemoGroupKey, string>;

/** Members of the partner (second) group may view and comment on every case of the first. */
const PARTNERS: readonly [DemoGroupKey, DemoGroupKey][] = [['northern', 'central']];

/** Who belongs where. The role accounts hold their role in two or three groups each. */
export const DEMO_MEMBERSHIPS: readonly [DemoGroupKey, DemoAccountKey, GroupRole][] = [
  ['central', 'readOnly', 'read_only'],
  ['northern', 'readOnly', 'read_only'],
  ['central', 'member', 'member'],
  ['university', 'member', 'member'],
  ['northern', 'member', 'member'],
  ['central', 'admin', 'administrator'],
  ['university', 'admin', 'administrator'],
  ['harbor', 'admin', 'administrator'],
  ['central', 'owner', 'proprietor'],
  ['university', 'owner', 'proprietor'],
  ['cytology', 'owner', 'proprietor'],
  ['provider', 'staff', 'member'],
  ['central', 'ito', 'member'],
  ['northern', 'ito', 'administrator'],
  ['cytology', 'suzuki', 'administrator'],
  ['provider', 'suzuki', 'member'],
  ['harbor', 'miller', 'member'],
  ['university', 'miller', 'member'],
  ['research', 'chen', 'administrator'],
];

const CONTRACT_PROPRIETORS: readonly [DemoContractKey, DemoAccountKey][] = [['sakura', 'owner']];

export async function seedDemoGroups(
  tx: DbTransaction,
  people: DemoAccountIds,
  createdAt: Date,
): Promise<DemoGroupIds> {
  const contractIds = {} as Record<DemoContractKey, string>;
  for (const [key, contract] of Object.entries(CONTRACTS) as [DemoContractKey, (typeof CONTRACTS)[DemoContractKey]][]) {
    const [row] = await tx
      .insert(contracts)
      .values({ ...contract, createdAt })
      .returning({ id: contracts.id });
    contractIds[key] = required(row).id;
  }
  await tx.insert(contractProprietors).values(
    CONTRACT_PROPRIETORS.map(([contract, account]) => ({
      contractId: contractIds[contract],
      accountId: people[account],
      createdAt,
    })),
  );

  const groupIds = {} as DemoGroupIds;
  for (const [key, group] of Object.entries(DEMO_GROUPS) as [DemoGroupKey, GroupDefinition][]) {
    const [row] = await tx
      .insert(organizations)
      .values({
        name: group.name,
        description: group.description,
        country: 'JP',
        contractId: contractIds[group.contract],
        storageLimitGb: group.storageLimitGb ?? null,
        predictionEnabled: group.predictionEnabled ?? false,
        downloadDrawingsEnabled: group.downloadDrawingsEnabled ?? false,
        isProvider: group.isProvider ?? false,
        drawingCreationDenied: group.drawingCreationDenied ?? false,
        aiAgreementSkipped: group.aiAgreementSkipped ?? false,
        createdAt,
      })
      .returning({ id: organizations.id });
    groupIds[key] = required(row).id;
  }

  await tx.insert(memberships).values(
    DEMO_MEMBERSHIPS.map(([group, account, role]) => ({
      organizationId: groupIds[group],
      accountId: people[account],
      role,
      createdAt,
    })),
  );
  await tx.insert(organizationPartners).values(
    PARTNERS.map(([organization, partner]) => ({
      organizationId: groupIds[organization],
      partnerOrganizationId: groupIds[partner],
      createdAt,
    })),
  );
  await tx.insert(colorPresets).values([
    { organizationId: groupIds.central, name: 'H&E standard', settings: DEFAULT_COLOR_SETTINGS, isDefault: true },
    {
      organizationId: groupIds.central,
      name: 'High contrast',
      settings: { ...DEFAULT_COLOR_SETTINGS, contrast: 30, saturation: 15 },
    },
  ]);
  return groupIds;
}

export function required<T>(row: T | undefined): T {
  if (row === undefined) throw new Error('insert returned no row');
  return row;
}
