import { Anchor, Badge, Checkbox, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { CaseListImage, CaseListItem } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PredictionStatus } from '../predictions/PredictionStatus.tsx';
import type { useLabelChange } from './case-list.queries.ts';
import { ImageLabelToggles } from './ImageLabelToggles.tsx';
import { ImageThumbnail } from './ImageThumbnail.tsx';
import { IconMessage, IconPencil } from '@tabler/icons-react';
import { ImageStatusBadge, ViewableWhileConvertingBadge } from './status-badges.tsx';
import { viewableWhileConverting } from './viewable-while-converting.ts';

/** Part 1 §3: tag badges are 84 px wide. */
const TAG_WIDTH = 84;

export interface CaseImagesProps {
  item: CaseListItem;
  imageHref: (imageId: string) => string;
  selected: ReadonlySet<string>;
  onSelect: (imageId: string, checked: boolean) => void;
  labelChange: ReturnType<typeof useLabelChange>;
}

/**
 * The images of an expanded row: thumbnail, name, counts, tags, labels. Viewable ones open (a slide still converting
 * is served from its original meanwhile); only available ones select, for actions that need the finished pyramid.
 */
export function CaseImages({ item, imageHref, selected, onSelect, labelChange }: CaseImagesProps) {
  const { t } = useTranslation();
  if (item.images.length === 0) {
    return (
      <Text size="xs" c="dimmed" py={6} pl={4} data-testid="case-images-empty">
        {t('caseList.images.none')}
      </Text>
    );
  }
  return (
    <Stack gap={0} data-testid="case-images">
      {item.images.map((image) => (
        <ImageLine key={image.id} {...{ item, image, imageHref, selected, onSelect, labelChange }} />
      ))}
    </Stack>
  );
}

function ImageLine({
  item,
  image,
  imageHref,
  selected,
  onSelect,
  labelChange,
}: CaseImagesProps & { image: CaseListImage }) {
  const { t } = useTranslation();
  const available = image.status === 'available';
  const viewable = image.viewable;
  const caps = item.userCapabilities;
  return (
    <Group
      gap="sm"
      wrap="nowrap"
      py={5}
      px={4}
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
      data-testid="case-image"
      data-status={image.status}
    >
      <Checkbox
        size="xs"
        disabled={!available}
        checked={available && selected.has(image.id)}
        onChange={(event) => onSelect(image.id, event.currentTarget.checked)}
        aria-label={t('caseList.images.select', { name: image.displayName })}
      />
      <ImageThumbnail
        imageId={image.id}
        status={image.status}
        viewable={viewable}
        alt={t('caseList.images.thumbnail', { name: image.displayName })}
      />
      <Group gap={6} wrap="nowrap" style={{ flex: '1 1 220px', minWidth: 0 }}>
        {viewable ? (
          <Anchor component={Link} to={imageHref(image.id)} size="sm" fw={500} truncate="end" data-testid="image-link">
            {image.displayName}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed" truncate="end">
            {image.displayName}
          </Text>
        )}
        {viewableWhileConverting(image) ? (
          <ViewableWhileConvertingBadge image={image} style={{ flex: 'none' }} />
        ) : (
          !available && <ImageStatusBadge status={image.status} />
        )}
      </Group>
      <Group gap={10} wrap="nowrap" w={96}>
        <Tooltip label={t('caseList.counts.annotations', { count: image.annotationCount })} openDelay={300}>
          <Group gap={3} wrap="nowrap" c="dimmed">
            <IconPencil size={13} />
            <Text size="xs">{image.annotationCount}</Text>
          </Group>
        </Tooltip>
        <Tooltip label={t('caseList.counts.comments', { count: image.commentCount })} openDelay={300}>
          <Group gap={3} wrap="nowrap" c="dimmed">
            <IconMessage size={13} />
            <Text size="xs">{image.commentCount}</Text>
          </Group>
        </Tooltip>
      </Group>
      <Group gap={4} wrap="wrap" style={{ flex: '1 1 260px' }}>
        {image.predictionSummary.map((summary, index) => (
          <PredictionStatus key={`${summary.modelName}-${index}`} summary={summary} />
        ))}
        {image.magnification != null && (
          <Badge
            size="sm"
            radius="sm"
            variant="light"
            color={image.magnification === 40 ? 'teal' : 'cyan'}
            tt="none"
            w={48}
          >
            {t('caseList.images.magnification', { value: image.magnification })}
          </Badge>
        )}
        {image.imageTags.map((tag) => (
          <Tooltip key={tag} label={tag} openDelay={300}>
            <Badge
              size="sm"
              radius="sm"
              variant="outline"
              color="gray"
              w={TAG_WIDTH}
              tt="none"
              fw={500}
              data-testid="image-tag"
            >
              {tag}
            </Badge>
          </Tooltip>
        ))}
      </Group>
      <ImageLabelToggles image={image} caps={caps} labelChange={labelChange} />
    </Group>
  );
}
