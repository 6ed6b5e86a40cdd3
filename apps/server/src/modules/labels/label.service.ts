import type { LabelInput } from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService, CaseCapability } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import type { LabelRepository } from './label.repository.ts';
import { isUuid } from '../../http/ids.ts';

interface Deps {
  labels: LabelRepository;
  capabilities: Pick<CapabilitiesService, 'requireCaseCapability'>;
}

function capabilityFor(label: Pick<LabelInput, 'visibilityType'>): CaseCapability {
  return label.visibilityType === 'private' ? 'canModifyPrivateLabelled' : 'canModifyPublicLabelled';
}

/**
 * Case-level labels apply to the case and all its images (part 1 §4): the list's toggle decides
 * between create and delete, the server applies the choice to every image at once.
 */
export function createLabelService({ labels, capabilities }: Deps) {
  async function requireLabelRights(caller: Caller, caseId: string, label: Pick<LabelInput, 'visibilityType'>) {
    await capabilities.requireCaseCapability(caller, caseId, 'canViewLabelled');
    await capabilities.requireCaseCapability(caller, caseId, capabilityFor(label));
  }

  async function imageCase(imageId: string): Promise<string> {
    const caseId = isUuid(imageId) ? await labels.findImageCase(imageId) : undefined;
    if (caseId == null) throw HttpError.notFound();
    return caseId;
  }

  return {
    async labelCase(caller: Caller, caseId: string, label: LabelInput) {
      await requireLabelRights(caller, caseId, label);
      await labels.labelCase(caseId, label, caller.accountId);
      return labels.caseLabels(caseId, caller.accountId);
    },

    async unlabelCase(caller: Caller, caseId: string, label: LabelInput) {
      await requireLabelRights(caller, caseId, label);
      await labels.unlabelCase(caseId, label, caller.accountId);
      return labels.caseLabels(caseId, caller.accountId);
    },

    async labelImage(caller: Caller, imageId: string, label: LabelInput) {
      const caseId = await imageCase(imageId);
      await requireLabelRights(caller, caseId, label);
      return labels.labelImage(imageId, label, caller.accountId);
    },

    async unlabelImage(caller: Caller, imageId: string, labelId: string): Promise<void> {
      const caseId = await imageCase(imageId);
      const label = isUuid(labelId) ? await labels.findLabel(labelId) : undefined;
      // Someone else's star is as invisible as a label that does not exist.
      const visible =
        label?.imageId === imageId && (label.visibilityType === 'public' || label.accountId === caller.accountId);
      await capabilities.requireCaseCapability(caller, caseId, 'canViewLabelled');
      if (!visible) throw HttpError.notFound();
      await requireLabelRights(caller, caseId, label);
      await labels.deleteLabel(label.id);
    },
  };
}

export type LabelService = ReturnType<typeof createLabelService>;
