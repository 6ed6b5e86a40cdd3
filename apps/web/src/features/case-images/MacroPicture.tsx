import { Box, Skeleton, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useThumbnail } from './useThumbnail.ts';

const HEIGHT = 44;

/**
 * The scanner's macro picture of the whole glass (an NDPI's or an SVS's), as a strip under an image's thumbnail: it
 * shows where on the glass the tissue was scanned. Nothing when it fails to load, as the thumbnail above says why.
 */
export function MacroPicture({ imageId, name }: { imageId: string; name: string }) {
  const { t } = useTranslation();
  const { ref, state } = useThumbnail<HTMLDivElement>(imageId, true, 'MACRO');
  const alt = t('caseImages.macroOf', { name });
  if (state.kind === 'failed') return null;
  return (
    <Tooltip label={t('caseImages.macro')} openDelay={300}>
      <Box
        ref={ref}
        h={HEIGHT}
        bg="gray.0"
        style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
        data-testid="case-image-macro"
        data-state={state.kind}
      >
        {state.kind === 'loaded' ? (
          <img src={state.url} alt={alt} style={{ display: 'block', width: '100%', height: '100%', objectFit: 'contain' }} />
        ) : (
          <Skeleton w="100%" h="100%" radius={0} animate={state.kind === 'loading'} aria-label={alt} />
        )}
      </Box>
    </Tooltip>
  );
}
