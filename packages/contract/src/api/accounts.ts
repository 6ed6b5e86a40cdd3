import { z } from 'zod';
import { GroupRoleSchema } from '../domain/roles.ts';
import { RoleChecksSchema } from './capabilities.ts';
import { maxLengthMessage, requiredError } from './cases.ts';
import { MESSAGES } from './errors.ts';

/** The signed-in person's local account (GET accounts/me, shown on /my-account). */
export const AccountSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  affiliation: z.string().nullable(),
  profile: z.string().nullable(),
  isSuperUser: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type Account = z.infer<typeof AccountSchema>;

const MAX_NAME = 100;
const nameField = z.string(requiredError).trim().max(MAX_NAME, maxLengthMessage(MAX_NAME));

/** POST accounts/me/update (and accounts/update for super users, with the account's id): the names shown everywhere. */
export const UpdateAccountRequestSchema = z.object({
  firstName: nameField.min(1, MESSAGES.fieldRequired),
  lastName: nameField.min(1, MESSAGES.fieldRequired),
  /** Blank means "use first and last name". */
  displayName: nameField.nullable().transform((value) => (value ? value : null)),
});
export type UpdateAccountRequest = z.input<typeof UpdateAccountRequestSchema>;

/** POST accounts/update/attributes: the free-text parts of the profile. */
export const UpdateAccountAttributesRequestSchema = z.object({
  affiliation: z.string().trim().max(200, maxLengthMessage(200)).nullable().optional(),
  profile: z.string().trim().max(2000, maxLengthMessage(2000)).nullable().optional(),
});
export type UpdateAccountAttributesRequest = z.input<typeof UpdateAccountAttributesRequestSchema>;

/** Avatars are stored small: a square of this many pixels. */
export const AVATAR_SIZE = 256;
export const MAX_AVATAR_UPLOAD_BYTES = 5 * 1024 * 1024;

export const MembershipSummarySchema = z.object({
  organizationId: z.uuid(),
  organizationName: z.string(),
  role: GroupRoleSchema,
});

/** GET accounts/roles: the caller-wide role checks and the groups they come from. */
export const AccountRolesSchema = z.object({
  checks: RoleChecksSchema,
  memberships: z.array(MembershipSummarySchema),
});
export type AccountRoles = z.infer<typeof AccountRolesSchema>;

/** Menu entries of part 1 §2, in their display order. */
export const MENU_ITEM_KEYS = [
  'organizations',
  'cases',
  'bulkUpload',
  'users',
  'contracts',
  'importCsv',
  'exportCsv',
  'noticePosts',
] as const;
export const MenuItemKeySchema = z.enum(MENU_ITEM_KEYS);
export type MenuItemKey = z.infer<typeof MenuItemKeySchema>;

export const MENU_ROUTES: Record<MenuItemKey, string> = {
  organizations: '/organizations',
  cases: '/cases',
  bulkUpload: '/bulk-upload',
  users: '/users',
  contracts: '/contracts',
  importCsv: '/import-csv',
  exportCsv: '/export-csv',
  noticePosts: '/notices/posts',
};

export const MenuItemSchema = z.object({
  key: MenuItemKeySchema,
  path: z.string(),
  /** Which count the entry shows as a badge: queued uploads or CSV rows, both kept by the browser. */
  badge: z.enum(['uploadQueue', 'csvRows']).optional(),
});
export type MenuItem = z.infer<typeof MenuItemSchema>;

/** GET accounts/me/menu: when `data` is null the web builds the default menu from the role checks. */
export const AccountMenuSchema = z.object({ data: z.array(MenuItemSchema).nullable() });
export type AccountMenu = z.infer<typeof AccountMenuSchema>;

/**
 * The menu table of part 1 §2 as one rule both sides use: everyone sees Groups and Cases,
 * members Upload Files, administrators Users, proprietors Contracts (and the provider's employees, who create
 * contracts there), super users the CSV and notice entries.
 */
export function defaultMenu(checks: z.infer<typeof RoleChecksSchema>): MenuItem[] {
  const visible: Record<MenuItemKey, boolean> = {
    organizations: true,
    cases: true,
    bulkUpload: checks.isMember,
    users: checks.isAdministrator,
    contracts: checks.isProprietor || checks.canCreateContract,
    importCsv: checks.isSuperUser,
    exportCsv: checks.isSuperUser,
    noticePosts: checks.isSuperUser,
  };
  return MENU_ITEM_KEYS.filter((key) => visible[key]).map((key) => ({
    key,
    path: MENU_ROUTES[key],
    ...(key === 'bulkUpload' ? { badge: 'uploadQueue' as const } : {}),
    ...(key === 'importCsv' ? { badge: 'csvRows' as const } : {}),
  }));
}
