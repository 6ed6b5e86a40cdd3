import { failedForGood, type Image } from '@pathology/contract';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Menu,
  Stack,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconCopy, IconDots, IconDownload, IconEye, IconRefresh, IconTrash } from '@tabler/icons-react';
import { formatDateTime } from '../../lib/format-date.ts';
import { DicomMenuItems } from './dicom-actions.tsx';
import { formatFileSize } from './format-size.ts';
import { MacroPicture } from './MacroPicture.tsx';
import { SlideThumbnail } from './SlideThumbnail.tsx';
import type { ImageActions } from './useImageActions.tsx';

export interface ImageCapabilities {
  canEdit: boolean;
  canDownloadImage: boolean;
  /** Also lets the user export the slide as DICOM, as the server's export route rules. */
  canDownloadDrawings: boolean;
}

/** Spec part 2 §5: scans at x40 show teal, others cyan. */
export function magnificationColor(magnification: number): 'teal' | 'cyan' {
  return magnification === 40 ? 'teal' : 'cyan';
}

/** Reprocess is offered for failed conversions and for available images (e.g. after a converter update). */
function canReprocess(image: Image): boolean {
  return image.status === 'process_failed' || image.status === 'available';
}

interface ImageCardProps {
  image: Image;
  href: string;
  caps: ImageCapabilities;
  actions: ImageActions;
  /** Checked for the toolbar's actions; only an available image can be. */
  selected: boolean;
  onSelect: (checked: boolean) => void;
  onCopy: () => void;
  /** The image's star and public labels, when known. */
  labels?: ReactNode;
}

/**
 * One image of the images tab: thumbnail (with the scanner's macro picture under it once a conversion has kept one),
 * names, facts, and its actions. An available image opens, and so does one still converting whose original is served
 * meanwhile (`viewable`).
 */
export function ImageCard({ image, href, caps, actions, selected, onSelect, onCopy, labels }: ImageCardProps) {
  const { t } = useTranslation();
  const available = image.status === 'available';
  const viewable = image.viewable;
  const busy = actions.busy.has(image.id);
  const alt = t('caseImages.thumbnailOf', { name: image.displayName });

  return (
    <Card withBorder radius="md" padding="sm" data-testid="case-image-card" data-status={image.status}>
      <Card.Section>
        {viewable ? (
          <Link to={href} tabIndex={-1} aria-hidden style={{ display: 'block', textDecoration: 'none' }}>
            <SlideThumbnail
              imageId={image.id}
              status={image.status}
              viewable
              conversionProgress={image.conversionProgress}
              alt={alt}
              width="100%"
              height={150}
            />
          </Link>
        ) : (
          <SlideThumbnail
            imageId={image.id}
            status={image.status}
            processErrorCode={image.processError?.code}
            alt={alt}
            width="100%"
            height={150}
          />
        )}
        {image.associatedImages.includes('macro') && <MacroPicture imageId={image.id} name={image.displayName} />}
      </Card.Section>
      <Stack gap={6} mt="sm">
        <Group gap={6} wrap="nowrap" justify="flex-start" align="flex-start">
          <Checkbox
            size="xs"
            mt={3}
            disabled={!available}
            checked={available && selected}
            onChange={(event) => onSelect(event.currentTarget.checked)}
            aria-label={t('caseImages.toolbar.select', { name: image.displayName })}
            data-testid="case-image-select"
          />
          <Stack gap={0} style={{ minWidth: 0 }}>
            {viewable ? (
              <Anchor component={Link} to={href} fw={600} size="sm" truncate="end" data-testid="case-image-link">
                {image.displayName}
              </Anchor>
            ) : (
              <Text fw={600} size="sm" truncate="end">
                {image.displayName}
              </Text>
            )}
            {image.filename !== image.displayName && (
              <Text size="xs" c="dimmed" truncate="end" title={image.filename}>
                {image.filename}
              </Text>
            )}
          </Stack>
        </Group>
        {labels}
        <Group gap={6} wrap="wrap">
          <Fact label={t('caseImages.fields.size')}>{formatFileSize(image.size)}</Fact>
          {image.dimensions && (
            <Fact label={t('caseImages.fields.dimensions')}>
              {t('caseImages.dimensions', { width: image.dimensions.width, height: image.dimensions.height })}
            </Fact>
          )}
          {image.magnification != null && (
            <Badge size="sm" radius="sm" variant="light" color={magnificationColor(image.magnification)} tt="none">
              {t('caseImages.magnification', { value: image.magnification })}
            </Badge>
          )}
        </Group>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            <VisuallyHidden>{t('caseImages.fields.created')}: </VisuallyHidden>
            {formatDateTime(image.createdAt)}
          </Text>
          <Group gap={4} wrap="nowrap">
            {viewable && (
              <Button
                component={Link}
                to={href}
                size="compact-xs"
                variant="light"
                leftSection={<IconEye size={14} />}
                data-testid="case-image-view"
              >
                {t('caseImages.actions.view')}
              </Button>
            )}
            {/* Whoever sees the slide may read it over DICOMweb, so the menu is always there. */}
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Tooltip label={t('caseImages.actions.more')} openDelay={300}>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="sm"
                    loading={busy}
                    aria-label={t('caseImages.actions.moreFor', { name: image.displayName })}
                    data-testid="case-image-menu"
                  >
                    <IconDots size={16} />
                  </ActionIcon>
                </Tooltip>
              </Menu.Target>
              <Menu.Dropdown>
                {caps.canDownloadImage && (
                  <Menu.Item
                    leftSection={<IconDownload size={15} />}
                    onClick={() => actions.download(image)}
                    data-testid="case-image-download"
                  >
                    {t('caseImages.actions.download')}
                  </Menu.Item>
                )}
                {caps.canDownloadImage && (
                  <Menu.Item
                    leftSection={<IconCopy size={15} />}
                    disabled={!available}
                    onClick={onCopy}
                    data-testid="case-image-copy"
                  >
                    {t('caseImages.copy.menu')}
                  </Menu.Item>
                )}
                <DicomMenuItems image={image} canExport={caps.canDownloadDrawings} />
                {caps.canEdit && !failedForGood(image.processError) && (
                  <Menu.Item
                    leftSection={<IconRefresh size={15} />}
                    disabled={!canReprocess(image)}
                    onClick={() => actions.reprocess(image)}
                    data-testid="case-image-reprocess"
                  >
                    {t('caseImages.actions.reprocess')}
                  </Menu.Item>
                )}
                {caps.canEdit && (
                  <Menu.Item
                    color="red"
                    leftSection={<IconTrash size={15} />}
                    onClick={() => actions.remove(image)}
                    data-testid="case-image-delete"
                  >
                    {t('caseImages.actions.delete')}
                  </Menu.Item>
                )}
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

function Fact({ label, children }: { label: string; children: string }) {
  return (
    <Tooltip label={label} openDelay={300}>
      <Badge size="sm" radius="sm" variant="default" tt="none" fw={500}>
        <VisuallyHidden>{label}: </VisuallyHidden>
        {children}
      </Badge>
    </Tooltip>
  );
}
