import { hashPassword } from '../../auth/password.ts';
import { accounts } from '../schema/index.ts';
import type { DbTransaction } from './types.ts';

/**
 * Accounts for trying the product, one per kind of user. The passwords are public on purpose:
 * they are shown on the built-in sign-in page of a demo installation.
 */
export const DEMO_ACCOUNTS = [
  {
    key: 'readOnly',
    email: 'read_only@demo.test',
    password: 'demo-read-only-2026',
    firstName: 'Rina',
    lastName: 'Okada',
    affiliation: 'Sakura Central Hospital, Medical Records',
    description: 'read_only in Sakura Central Hospital and Northern Regional Hospital',
  },
  {
    key: 'member',
    email: 'member@demo.test',
    password: 'demo-member-2026',
    firstName: 'Mina',
    lastName: 'Kobayashi',
    affiliation: 'Sakura Central Hospital, Department of Pathology',
    description: 'member in Sakura Central Hospital, Sakura University Hospital and Northern Regional Hospital',
  },
  {
    key: 'admin',
    email: 'admin@demo.test',
    password: 'demo-admin-2026',
    firstName: 'Akira',
    lastName: 'Tanaka',
    affiliation: 'Sakura Central Hospital, Department of Pathology',
    description: 'administrator in Sakura Central Hospital, Sakura University Hospital and Harbor Dermatopathology',
  },
  {
    key: 'owner',
    email: 'owner@demo.test',
    password: 'demo-owner-2026',
    firstName: 'Olivia',
    lastName: 'Hayashi',
    affiliation: 'Sakura Medical Group',
    description: 'proprietor of the Sakura Medical Group contract and of its three groups',
  },
  {
    key: 'staff',
    email: 'staff@demo.test',
    password: 'demo-staff-2026',
    firstName: 'Sota',
    lastName: 'Fujimoto',
    affiliation: 'PathoLink Services',
    description: "provider employee: member of the provider's own group, PathoLink Support",
  },
  {
    key: 'super',
    email: 'super@demo.test',
    password: 'demo-super-2026',
    firstName: 'Saki',
    lastName: 'Nakamura',
    affiliation: 'PathoLink Services',
    description: 'super user: sees every group, posts notices, imports and exports CSV',
  },
] as const;

/** Colleagues who fill member lists and write comments; no password, so they cannot sign in. */
export const DEMO_COLLEAGUES = [
  { key: 'ito', email: 'k.ito@demo.test', firstName: 'Kenji', lastName: 'Ito', affiliation: 'Pathologist' },
  {
    key: 'suzuki',
    email: 'y.suzuki@demo.test',
    firstName: 'Yuko',
    lastName: 'Suzuki',
    affiliation: 'Cytotechnologist',
  },
  {
    key: 'miller',
    email: 'd.miller@demo.test',
    firstName: 'David',
    lastName: 'Miller',
    affiliation: 'Dermatopathologist',
  },
  { key: 'chen', email: 'l.chen@demo.test', firstName: 'Lin', lastName: 'Chen', affiliation: 'Research scientist' },
] as const;

export type DemoAccountKey = (typeof DEMO_ACCOUNTS)[number]['key'] | (typeof DEMO_COLLEAGUES)[number]['key'];
export type DemoAccountIds = Record<DemoAccountKey, string>;

export async function seedDemoAccounts(tx: DbTransaction, createdAt: Date): Promise<DemoAccountIds> {
  const people = [
    ...(await Promise.all(
      DEMO_ACCOUNTS.map(async (account) => ({
        ...account,
        passwordHash: await hashPassword(account.password),
        isSuperUser: account.key === 'super',
      })),
    )),
    ...DEMO_COLLEAGUES.map((colleague) => ({ ...colleague, passwordHash: null, isSuperUser: false })),
  ];
  const rows = await tx
    .insert(accounts)
    .values(
      people.map((person) => ({
        email: person.email,
        firstName: person.firstName,
        lastName: person.lastName,
        displayName: `${person.firstName} ${person.lastName}`,
        affiliation: person.affiliation,
        passwordHash: person.passwordHash,
        isSuperUser: person.isSuperUser,
        emailVerified: true,
        createdAt,
      })),
    )
    .returning({ id: accounts.id, email: accounts.email });
  const idByEmail = new Map(rows.map((row) => [row.email, row.id]));
  const ids: Partial<DemoAccountIds> = {};
  for (const person of people) {
    const id = idByEmail.get(person.email);
    if (id === undefined) throw new Error(`demo account ${person.email} was not created`);
    ids[person.key] = id;
  }
  return ids as DemoAccountIds;
}
