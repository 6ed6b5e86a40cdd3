import { Badge, Box, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { PROCESS_ERROR_CODES, type ImageStatus } from '@pathology/contract';
import type { TFunction } from 'i18next';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { IconPhoto } from '@tabler/icons-react';
import { errorText } from '../../i18n/error-text.ts';
import { STATUS_COLORS, ViewableWhileConvertingBadge } from '../case-list/status-badges.tsx';
import { useThumbnail } from './useThumbnail.ts';

export interface SlideThumbnailProps {
  imageId: string;
  status: ImageStatus;
  /** Code of a failed conversion (-100, -101), when known. */
  processErrorCode?: number | null;
  /** Shown before it is available (served from its original while it converts): its thumbnail loads at once. */
  viewable?: boolean;
  /** The running conversion's percent, shown on the thumbnail of a slide viewable meanwhile. */
  conversionProgress?: number | null;
  alt: string;
  width?: number | string;
  height?: number | string;
}

/** The -100 / -101 explanation of a failed conversion (spec part 2 §4), or undefined for other codes. */
export function processErrorText(code: number | null | undefined, t: TFunction): string | undefined {
  if (code === PROCESS_ERROR_CODES.unsupportedData) return t('caseImages.processError.unsupportedData');
  if (code === PROCESS_ERROR_CODES.pleaseReprocess) return t('caseImages.processError.pleaseReprocess');
  return undefined;
}

const frame: CSSProperties = {
  borderRadius: 4,
  border: '1px solid var(--mantine-color-default-border)',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  overflow: 'hidden',
  flex: 'none',
  position: 'relative',
};

/**
 * A slide's thumbnail, loaded with the bearer token when it scrolls into view (skeleton meanwhile). An image that is
 * not available shows its status in the status colour instead (uploaded yellow, processing orange, failed red), or,
 * when it is viewable from its original meanwhile, its thumbnail (cut from the original) with that status on it; a
 * failed load shows 'Error' and the reason. Small sizes (the case list) keep the text in a tooltip.
 */
export function SlideThumbnail({
  imageId,
  status,
  processErrorCode,
  viewable = false,
  conversionProgress = null,
  alt,
  width = 56,
  height = 40,
}: SlideThumbnailProps) {
  const { t } = useTranslation();
  const available = status === 'available';
  const { ref, state } = useThumbnail<HTMLDivElement>(imageId, available || viewable);
  const compact = typeof width === 'number' && width < 120;

  if (!available && !viewable) {
    const color = STATUS_COLORS[status];
    const label = t(`caseList.imageStatus.${status}`);
    const detail = status === 'process_failed' ? processErrorText(processErrorCode, t) : undefined;
    const body = (
      <Box
        ref={ref}
        w={width}
        h={height}
        bg={`${color}.0`}
        style={{ ...frame, borderColor: `var(--mantine-color-${color}-3)` }}
        data-testid="image-thumbnail"
        data-state={status}
        role="img"
        aria-label={detail ? `${alt}: ${label}, ${detail}` : `${alt}: ${label}`}
      >
        {compact ? (
          <IconPhoto size={18} color={`var(--mantine-color-${color}-6)`} />
        ) : (
          <Stack gap={4} align="center" px="xs">
            <Badge size="sm" variant="filled" color={color} radius="sm">
              {label}
            </Badge>
            {detail && (
              <Text size="xs" c={`${color}.8`} ta="center" lh={1.3}>
                {detail}
              </Text>
            )}
          </Stack>
        )}
      </Box>
    );
    return compact ? (
      <Tooltip label={detail ? `${label}: ${detail}` : label} openDelay={200}>
        {body}
      </Tooltip>
    ) : (
      body
    );
  }

  if (state.kind === 'loaded') {
    return (
      <Box ref={ref} w={width} h={height} bg="gray.0" style={frame} data-testid="image-thumbnail" data-state="loaded">
        <img src={state.url} alt={alt} style={{ width: '100%', height: '100%', objectFit: 'contain' }} />
        {!available && !compact && <StatusOverlay status={status} conversionProgress={conversionProgress} />}
      </Box>
    );
  }

  if (state.kind === 'failed') {
    const message = errorText(state.error, t);
    const body = (
      <Box
        ref={ref}
        w={width}
        h={height}
        bg="red.0"
        style={{ ...frame, borderColor: 'var(--mantine-color-red-3)' }}
        data-testid="image-thumbnail"
        data-state="error"
        role="img"
        aria-label={`${alt}: ${t('caseImages.thumbnail.error')} ${message}`}
      >
        <Stack gap={0} align="center" px={4}>
          <Text size="xs" fw={700} c="red.7">
            {t('caseImages.thumbnail.error')}
          </Text>
          {!compact && (
            <Text size="xs" c="red.7" ta="center" lineClamp={3}>
              {message}
            </Text>
          )}
        </Stack>
      </Box>
    );
    return compact ? <Tooltip label={message}>{body}</Tooltip> : body;
  }

  return (
    <Box
      ref={ref}
      w={width}
      h={height}
      style={{ flex: 'none', position: 'relative' }}
      data-testid="image-thumbnail"
      data-state={state.kind}
    >
      <Skeleton w="100%" h="100%" radius={4} animate={state.kind === 'loading'} aria-label={alt} />
      {!available && !compact && <StatusOverlay status={status} conversionProgress={conversionProgress} />}
    </Box>
  );
}

/**
 * The status over the thumbnail of a slide viewable before it is available: the picture comes from the original, the
 * badge says the pyramid is still being built (or that its conversion failed).
 */
function StatusOverlay({ status, conversionProgress }: { status: ImageStatus; conversionProgress: number | null }) {
  const { t } = useTranslation();
  if (status === 'uploaded' || status === 'processing') {
    return (
      <ViewableWhileConvertingBadge
        image={{ status, conversionProgress }}
        size="sm"
        variant="filled"
        pos="absolute"
        top={6}
        left={6}
        maw="calc(100% - 12px)"
        style={{ zIndex: 1 }}
        data-testid="image-thumbnail-status"
      />
    );
  }
  return (
    <Badge
      pos="absolute"
      top={6}
      left={6}
      size="sm"
      variant="filled"
      color={STATUS_COLORS[status]}
      radius="sm"
      style={{ zIndex: 1 }}
      data-testid="image-thumbnail-status"
    >
      {t(`caseList.imageStatus.${status}`)}
    </Badge>
  );
}
