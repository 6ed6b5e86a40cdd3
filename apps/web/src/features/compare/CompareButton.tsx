import { Button, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconLayoutColumns } from '@tabler/icons-react';
import { comparePath, MAX_COMPARE_IMAGES, MIN_COMPARE_IMAGES } from './compare-url.ts';

/** The case images' "Compare": opens the checked images side by side, for 2 to 4 of them. */
export function CompareButton({ imageIds }: { imageIds: readonly string[] }) {
  const { t } = useTranslation();
  const usable = imageIds.length >= MIN_COMPARE_IMAGES && imageIds.length <= MAX_COMPARE_IMAGES;
  const common = {
    size: 'compact-sm',
    variant: 'default',
    leftSection: <IconLayoutColumns size={15} />,
    'data-testid': 'case-images-compare',
  } as const;
  if (usable) {
    return (
      <Button component={Link} to={comparePath(imageIds)} {...common}>
        {t('compare.open')}
      </Button>
    );
  }
  return (
    <Tooltip label={t('compare.openHint')} withArrow>
      <span>
        <Button disabled {...common}>
          {t('compare.open')}
        </Button>
      </span>
    </Tooltip>
  );
}
