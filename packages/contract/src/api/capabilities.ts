import { z } from 'zod';

/**
 * What the caller may do on one case (`userCapabilities` of a case). Computed by the server from
 * memberships, grants, partner groups, contract ownership and the owner group's feature flags; the
 * web only reads it, and the server enforces the same values on every route.
 */
export const CaseCapabilitiesSchema = z.object({
  /** Change the case's fields and its attachments (permission case/update). */
  canEdit: z.boolean(),
  canDelete: z.boolean(),
  canUploadImage: z.boolean(),
  canDownloadImage: z.boolean(),
  /** Give other accounts or groups a grant on the case. */
  canShare: z.boolean(),
  canComment: z.boolean(),
  canViewPrediction: z.boolean(),
  /** Also false when the owner group has prediction disabled. */
  canRequestPrediction: z.boolean(),
  /** Also false when the owner group has prediction disabled. */
  canRecoverPrediction: z.boolean(),
  canViewLabelled: z.boolean(),
  /** The personal star: everyone who sees the case may star it for themselves. */
  canModifyPrivateLabelled: z.boolean(),
  canModifyPublicLabelled: z.boolean(),
  canImageNote: z.boolean(),
  /** Also false when the owner group has drawings download disabled. */
  canDownloadDrawings: z.boolean(),
  /** A denial, not a right: true when the viewer must block screenshots and snapshots. */
  deniedScreenshot: z.boolean(),
  /** Also false for groups where drawing creation is denied. */
  canCreateDrawing: z.boolean(),
  /** Move the case to another group the caller may create cases in. */
  canTransfer: z.boolean(),
});
export type CaseCapabilities = z.infer<typeof CaseCapabilitiesSchema>;

/** What the caller may do in one group (`userCapabilities` of an organization). */
export const OrganizationCapabilitiesSchema = z.object({
  canCreateCase: z.boolean(),
  /** Same rule as canCreateCase. */
  canCreateComment: z.boolean(),
  canInviteUser: z.boolean(),
  canSeeMemberList: z.boolean(),
  canSeePartnerList: z.boolean(),
  canRemoveMember: z.boolean(),
  /** Create another group in this group's contract. */
  canCreateOrganization: z.boolean(),
  canTransferCases: z.boolean(),
  /** Change the group's settings. */
  canEdit: z.boolean(),
  canDelete: z.boolean(),
});
export type OrganizationCapabilities = z.infer<typeof OrganizationCapabilitiesSchema>;

/** What the caller may do with one contract (`userCapabilities` of a contract). */
export const ContractCapabilitiesSchema = z.object({
  canCreate: z.boolean(),
  canDelete: z.boolean(),
  canEdit: z.boolean(),
  /** Invite a contract proprietor. */
  canInviteUser: z.boolean(),
  canRemoveMember: z.boolean(),
  canSee: z.boolean(),
  canSeeOtherUsedFileSize: z.boolean(),
});
export type ContractCapabilities = z.infer<typeof ContractCapabilitiesSchema>;

/** Caller-wide role checks (GET accounts/roles): they drive the menu and the screens' guards. */
export const RoleChecksSchema = z.object({
  /** Member or higher in some group, a contract proprietor, or a super user. */
  isMember: z.boolean(),
  isAdministrator: z.boolean(),
  isProprietor: z.boolean(),
  /** Member of the provider's own group. */
  isProviderEmployee: z.boolean(),
  isSuperUser: z.boolean(),
  canSeeOriginalUsedFileSize: z.boolean(),
  canSeeMemberList: z.boolean(),
  canCreateOrganization: z.boolean(),
  canCreateContract: z.boolean(),
});
export type RoleChecks = z.infer<typeof RoleChecksSchema>;

/** The permission strings of the spec's catalogue. */
export const PERMISSIONS = [
  'case/delete',
  'case/update',
  'case/view_labelled',
  'case/mod_private_labelled',
  'case/mod_public_labelled',
  'case/download_drawings',
  'case/request_prediction',
  'org/create_case',
  'role/member',
  'role/administrator',
  'role/proprietor',
] as const;
export const PermissionSchema = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof PermissionSchema>;

/** The capabilities a permission may be read from; a permission whose source is absent is not held. */
export interface PermissionSources {
  case?: CaseCapabilities | null;
  organization?: OrganizationCapabilities | null;
  roles?: RoleChecks | null;
}

const READERS: Record<Permission, (sources: PermissionSources) => boolean | undefined> = {
  'case/delete': (s) => s.case?.canDelete,
  'case/update': (s) => s.case?.canEdit,
  'case/view_labelled': (s) => s.case?.canViewLabelled,
  'case/mod_private_labelled': (s) => s.case?.canModifyPrivateLabelled,
  'case/mod_public_labelled': (s) => s.case?.canModifyPublicLabelled,
  'case/download_drawings': (s) => s.case?.canDownloadDrawings,
  'case/request_prediction': (s) => s.case?.canRequestPrediction,
  'org/create_case': (s) => s.organization?.canCreateCase,
  'role/member': (s) => s.roles?.isMember,
  'role/administrator': (s) => s.roles?.isAdministrator,
  'role/proprietor': (s) => s.roles?.isProprietor,
};

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/**
 * Reads one catalogue permission from the capabilities at hand. A misspelt name throws rather than
 * answering false, so a typo in a guard fails loudly instead of silently hiding a feature.
 */
export function hasPermission(sources: PermissionSources, permission: string): boolean {
  if (!isPermission(permission)) throw new Error(`Unknown permission: ${permission}`);
  return READERS[permission](sources) ?? false;
}
