import { Group } from '@mantine/core';
import type { CaseCapabilities, CaseListImage } from '@pathology/contract';
import { PublicLabelPicker } from '../../components/labels/PublicLabelPicker.tsx';
import { StarToggle } from '../../components/labels/StarToggle.tsx';
import { hasLabel, imageLabelAction } from '../../components/labels/label-toggle.ts';
import { publicLabel, STAR_LABEL } from '../../components/labels/label.api.ts';
import { PRIVATE_LABEL_NAME } from '@pathology/contract';
import type { useLabelChange } from './case-list.queries.ts';

interface ImageLabelTogglesProps {
  image: Pick<CaseListImage, 'id' | 'privateLabelled' | 'publicLabelleds'>;
  caps: Pick<CaseCapabilities, 'canViewLabelled' | 'canModifyPrivateLabelled' | 'canModifyPublicLabelled'>;
  labelChange: ReturnType<typeof useLabelChange>;
}

/** An image's star and public labels, toggled in place (the case list's rows and the case's image cards). */
export function ImageLabelToggles({ image, caps, labelChange }: ImageLabelTogglesProps) {
  if (!caps.canViewLabelled) return null;
  const busy = labelChange.isPending;
  const toggleStar = () => {
    const decision = imageLabelAction(image.privateLabelled ? [image.privateLabelled] : [], PRIVATE_LABEL_NAME);
    labelChange.mutate(
      decision.action === 'delete'
        ? { target: 'image', imageId: image.id, labelId: decision.labelId, action: 'delete' }
        : { target: 'image', imageId: image.id, label: STAR_LABEL, action: 'create' },
    );
  };
  const togglePublic = (labelName: string) => {
    const decision = imageLabelAction(image.publicLabelleds, labelName);
    labelChange.mutate(
      decision.action === 'delete'
        ? { target: 'image', imageId: image.id, labelId: decision.labelId, action: 'delete' }
        : { target: 'image', imageId: image.id, label: publicLabel(labelName), action: 'create' },
    );
  };
  return (
    <Group gap={2} wrap="nowrap" data-testid="image-label-toggles">
      <StarToggle
        size="xs"
        active={image.privateLabelled != null}
        disabled={!caps.canModifyPrivateLabelled || busy}
        onToggle={toggleStar}
      />
      <PublicLabelPicker
        size="xs"
        shown={image.publicLabelleds.map((label) => label.labelName)}
        state={(name) => (hasLabel(image.publicLabelleds, name) ? 'all' : 'none')}
        onToggle={togglePublic}
        disabled={!caps.canModifyPublicLabelled || busy}
      />
    </Group>
  );
}
