import { Button, Menu } from '@mantine/core';
import type { Image } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { IconLayoutColumns } from '@tabler/icons-react';
import { comparePath } from './compare-url.ts';

/** The viewer's "Add slide to compare": another viewable slide of the case, opened beside this one. */
export function AddToCompare({ imageId, caseImages }: { imageId: string; caseImages: readonly Image[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const others = caseImages.filter((image) => image.id !== imageId && image.viewable);
  return (
    <Menu position="bottom-end" withArrow transitionProps={{ duration: 0 }}>
      <Menu.Target>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconLayoutColumns size={15} />}
          style={{ flexShrink: 0 }}
          data-testid="viewer-add-to-compare"
        >
          {t('compare.add')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {others.length === 0 && <Menu.Label>{t('compare.addNone')}</Menu.Label>}
        {others.map((image) => (
          <Menu.Item
            key={image.id}
            // After the menu has closed: leaving the page under an open menu breaks the menu's clean-up.
            onClick={() => window.setTimeout(() => void navigate(comparePath([imageId, image.id])), 0)}
          >
            {image.displayName}
            {image.staining ? ` (${image.staining})` : ''}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
