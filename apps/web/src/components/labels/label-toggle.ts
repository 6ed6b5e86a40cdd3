import type { CaseListImage, CaseListItem } from '@pathology/contract';

/** What a click on a label toggle sends: create the label, or delete it. */
export type LabelAction = 'create' | 'delete';

type Labelled = { id: string; labelName: string };
type CaseLabels = Pick<CaseListItem, 'privateLabelled' | 'publicLabelleds'> & {
  images: readonly Pick<CaseListImage, 'privateLabelled' | 'publicLabelleds'>[];
};

/** The row's star shows set when the case or any of its images carries the caller's star. */
export function isCaseStarred(item: CaseLabels): boolean {
  return item.privateLabelled != null || item.images.some((image) => image.privateLabelled != null);
}

/** Part 1 §4: the case star is deleted (from the case and all its images) if it is set anywhere, else created. */
export function caseStarAction(item: CaseLabels): LabelAction {
  return isCaseStarred(item) ? 'delete' : 'create';
}

export function hasLabel(labels: readonly Labelled[], labelName: string): boolean {
  return labels.some((label) => label.labelName === labelName);
}

/** How far a public label covers a case: on every image (or, without images, on the case), on some, or on none. */
export function casePublicLabelCoverage(item: CaseLabels, labelName: string): 'all' | 'some' | 'none' {
  if (item.images.length === 0) return hasLabel(item.publicLabelleds, labelName) ? 'all' : 'none';
  const count = item.images.filter((image) => hasLabel(image.publicLabelleds, labelName)).length;
  if (count === item.images.length) return 'all';
  return count > 0 || hasLabel(item.publicLabelleds, labelName) ? 'some' : 'none';
}

/** Part 1 §4: a case public label is deleted if every image has it (no images: the case has it), else created. */
export function casePublicLabelAction(item: CaseLabels, labelName: string): LabelAction {
  return casePublicLabelCoverage(item, labelName) === 'all' ? 'delete' : 'create';
}

/** Image toggles: the label found on the image is deleted by its id, otherwise the label is created. */
export function imageLabelAction(
  labels: readonly Labelled[],
  labelName: string,
): { action: 'create' } | { action: 'delete'; labelId: string } {
  const found = labels.find((label) => label.labelName === labelName);
  return found ? { action: 'delete', labelId: found.id } : { action: 'create' };
}

/** The distinct public labels shown for a case: its own and those of its images, in first-seen order. */
export function distinctPublicLabels(item: CaseLabels): string[] {
  const names = [...item.publicLabelleds, ...item.images.flatMap((image) => image.publicLabelleds)].map(
    (label) => label.labelName,
  );
  return [...new Set(names)];
}
