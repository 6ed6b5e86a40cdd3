import { LabelledSchema, PRIVATE_LABEL_NAME, type LabelInput } from '@pathology/contract';
import { api } from '../../api/client.ts';
import type { LabelAction } from './label-toggle.ts';

export const STAR_LABEL: LabelInput = { visibilityType: 'private', labelName: PRIVATE_LABEL_NAME };

export function publicLabel(labelName: string): LabelInput {
  return { visibilityType: 'public', labelName };
}

/** POST cases/{id}/labelleds or …/labelleds/delete: applies to the case and all its images. */
export async function changeCaseLabel(caseId: string, label: LabelInput, action: LabelAction): Promise<void> {
  const path = `/cases/${encodeURIComponent(caseId)}/labelleds${action === 'delete' ? '/delete' : ''}`;
  await api.post(path, label);
}

/** POST images/{id}/labelleds → the new label with its id. */
export function createImageLabel(imageId: string, label: LabelInput) {
  return api.post(`/images/${encodeURIComponent(imageId)}/labelleds`, label, { schema: LabelledSchema });
}

/** DELETE images/{id}/labelleds/{labelId}. */
export async function deleteImageLabel(imageId: string, labelId: string): Promise<void> {
  await api.delete(`/images/${encodeURIComponent(imageId)}/labelleds/${encodeURIComponent(labelId)}`);
}
