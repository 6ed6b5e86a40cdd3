import { describe, expect, it } from 'vitest';
import {
  CaseCapabilitiesSchema,
  OrganizationCapabilitiesSchema,
  PERMISSIONS,
  RoleChecksSchema,
  hasPermission,
  isPermission,
  type CaseCapabilities,
  type OrganizationCapabilities,
  type Permission,
  type PermissionSources,
  type RoleChecks,
} from './capabilities.ts';

const allFalse = <T extends Record<string, boolean>>(keys: readonly (keyof T)[]): T =>
  Object.fromEntries(keys.map((key) => [key, false])) as T;

const noCase = allFalse<CaseCapabilities>(CaseCapabilitiesSchema.keyof().options);
const noOrganization = allFalse<OrganizationCapabilities>(OrganizationCapabilitiesSchema.keyof().options);
const noRoles = allFalse<RoleChecks>(RoleChecksSchema.keyof().options);

/** Each permission with the one capability that must grant it. */
const READS: Record<Permission, PermissionSources> = {
  'case/delete': { case: { ...noCase, canDelete: true } },
  'case/update': { case: { ...noCase, canEdit: true } },
  'case/view_labelled': { case: { ...noCase, canViewLabelled: true } },
  'case/mod_private_labelled': { case: { ...noCase, canModifyPrivateLabelled: true } },
  'case/mod_public_labelled': { case: { ...noCase, canModifyPublicLabelled: true } },
  'case/download_drawings': { case: { ...noCase, canDownloadDrawings: true } },
  'case/request_prediction': { case: { ...noCase, canRequestPrediction: true } },
  'org/create_case': { organization: { ...noOrganization, canCreateCase: true } },
  'role/member': { roles: { ...noRoles, isMember: true } },
  'role/administrator': { roles: { ...noRoles, isAdministrator: true } },
  'role/proprietor': { roles: { ...noRoles, isProprietor: true } },
};

describe('hasPermission', () => {
  it('knows exactly the catalogue of the spec', () => {
    expect([...PERMISSIONS].sort()).toEqual(Object.keys(READS).sort());
    expect(PERMISSIONS).toHaveLength(11);
  });

  it.each(PERMISSIONS)('%s reads its own capability and nothing else', (permission) => {
    expect(hasPermission(READS[permission], permission)).toBe(true);
    // Every other permission's capability switched on must not grant this one.
    for (const other of PERMISSIONS.filter((p) => p !== permission)) {
      expect(hasPermission(READS[other], permission)).toBe(false);
    }
    expect(hasPermission({ case: noCase, organization: noOrganization, roles: noRoles }, permission)).toBe(false);
  });

  it('answers false when the capabilities it reads are absent', () => {
    for (const permission of PERMISSIONS) expect(hasPermission({}, permission)).toBe(false);
    expect(hasPermission({ case: null, organization: null, roles: null }, 'case/delete')).toBe(false);
  });

  it.each(['case/destroy', '', 'role/super_user', 'toString', 'CASE/DELETE'])('throws on unknown %j', (name) => {
    expect(() => hasPermission({ case: noCase }, name)).toThrow(`Unknown permission: ${name}`);
    expect(isPermission(name)).toBe(false);
  });
});
