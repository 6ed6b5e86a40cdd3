import type { CaseCapabilities } from '@pathology/contract';
import type { CallerAccess, CaseFacts, OrganizationFacts } from './access-facts.ts';
import { caseRoleAtLeast, effectiveCaseRole, type CaseRole } from './effective-role.ts';

export interface CaseAccess {
  role: CaseRole;
  capabilities: CaseCapabilities;
}

/** A right (not the deniedScreenshot denial) that a route may require on a case. */
export type CaseCapability = Exclude<keyof CaseCapabilities, 'deniedScreenshot'>;

type OwnerFlags = Pick<OrganizationFacts, 'predictionEnabled' | 'downloadDrawingsEnabled' | 'drawingCreationDenied'>;

/** The capabilities of a role on a case of a group with these flags (matrix in effective-role.ts). */
export function caseCapabilitiesForRole(role: CaseRole, owner: OwnerFlags): CaseCapabilities {
  const partner = caseRoleAtLeast(role, 'partner');
  const member = caseRoleAtLeast(role, 'member');
  const administrator = caseRoleAtLeast(role, 'administrator');
  return {
    canEdit: member,
    canDelete: administrator,
    canUploadImage: member,
    canDownloadImage: member,
    canShare: administrator,
    canComment: partner,
    canViewPrediction: true,
    canRequestPrediction: member && owner.predictionEnabled,
    canRecoverPrediction: member && owner.predictionEnabled,
    canViewLabelled: true,
    // The star is personal: starring changes nothing anyone else sees, so viewing is enough.
    canModifyPrivateLabelled: true,
    canModifyPublicLabelled: member,
    canImageNote: member,
    canDownloadDrawings: member && owner.downloadDrawingsEnabled,
    // Read-only viewers may look but not take the slide away as pictures; partners work with it.
    deniedScreenshot: !partner,
    canCreateDrawing: member && !owner.drawingCreationDenied,
    canTransfer: administrator,
  };
}

/** The caller's role and capabilities on a case, or null when the case must look absent (404). */
export function computeCaseAccess(caller: CallerAccess, kase: CaseFacts): CaseAccess | null {
  const role = effectiveCaseRole(caller, kase);
  if (role == null) return null;
  return { role, capabilities: caseCapabilitiesForRole(role, kase.ownerOrganization) };
}

/**
 * Comment update needs edit (spec part 3 §6); the author may also edit their own comment while
 * they may still comment on the case.
 */
export function canUpdateComment(
  capabilities: CaseCapabilities,
  comment: { accountId: string | null },
  callerAccountId: string,
): boolean {
  return capabilities.canEdit || (capabilities.canComment && comment.accountId === callerAccountId);
}

/** Comment delete needs edit or delete (spec part 3 §6), or being its author who may still comment. */
export function canDeleteComment(
  capabilities: CaseCapabilities,
  comment: { accountId: string | null },
  callerAccountId: string,
): boolean {
  return canUpdateComment(capabilities, comment, callerAccountId) || capabilities.canDelete;
}
