import type { Image } from '@pathology/contract';
import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconDots } from '@tabler/icons-react';
import { DicomMenuItems } from '../case-images/dicom-actions.tsx';

/** The viewer's slide menu in its top bar: the slide as DICOM (issue 45). */
export function SlideMenu({ image, canExport }: { image: Image; canExport: boolean }) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label={t('viewer.slideMenu')} openDelay={300}>
          <ActionIcon
            variant="default"
            size="md"
            aria-label={t('viewer.slideMenu')}
            style={{ flexShrink: 0 }}
            data-testid="viewer-slide-menu"
          >
            <IconDots size={16} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <DicomMenuItems image={image} canExport={canExport} />
      </Menu.Dropdown>
    </Menu>
  );
}
