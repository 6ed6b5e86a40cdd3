import { Badge, Loader } from '@mantine/core';
import type { Image } from '@pathology/contract';
import { useTranslation } from 'react-i18next';

/**
 * Over a slide shown from its original while the pyramid builds: "Building pyramid N %" ("Pyramid queued" while its
 * conversion waits for a worker), gone once the pyramid
 * has taken over (the same tiles, served faster). After a failed conversion the slide stays viewable from its
 * original, and the badge says so with the error.
 */
export function ConversionBadge({ image }: { image: Pick<Image, 'status' | 'conversionProgress' | 'processError'> }) {
  const { t } = useTranslation();
  if (image.status === 'available') return null;
  const failed = image.status === 'process_failed';
  return (
    <Badge
      pos="absolute"
      // Bottom centre: the top of the slide holds the drawing tools, the corners the zoom text and the navigator.
      bottom={16}
      left="50%"
      size="lg"
      radius="sm"
      variant="filled"
      color={failed ? 'red' : 'violet'}
      tt="none"
      leftSection={failed ? undefined : <Loader size={12} color="white" />}
      title={failed ? (image.processError?.message ?? undefined) : undefined}
      style={{ transform: 'translateX(-50%)', zIndex: 3, pointerEvents: failed ? 'auto' : 'none' }}
      data-testid="viewer-conversion-badge"
      data-state={failed ? 'failed' : 'building'}
    >
      {failed
        ? t('viewer.conversion.failed')
        : image.status === 'uploaded'
          ? t('viewer.conversion.queued')
          : t('viewer.conversion.building', { percent: image.conversionProgress ?? 0 })}
    </Badge>
  );
}
