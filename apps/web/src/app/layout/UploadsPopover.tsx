import { ActionIcon, EmptyState, Indicator, Popover, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconCloudUpload } from '../../components/icons.tsx';
import { useUploadQueueCount } from '../../features/uploads/upload-queue.store.ts';

/** Upload progress of this browser's queued files; the upload screens will list them here. */
export function UploadsPopover() {
  const { t } = useTranslation();
  const queued = useUploadQueueCount();
  const [opened, setOpened] = useState(false);
  return (
    <Indicator disabled={queued === 0} label={queued} size={16} offset={6} data-testid="uploads-indicator">
      <Popover opened={opened} onChange={setOpened} width={320} position="bottom-end" shadow="md" radius="md" withArrow>
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            radius="md"
            aria-label={t('uploads.label')}
            // Controlled, so the target toggles; Escape closes it from the button as well.
            onClick={() => setOpened((open) => !open)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setOpened(false);
            }}
            data-testid="uploads-button"
          >
            <IconCloudUpload size={22} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p="md" data-testid="uploads-popover">
          <Text fw={600} mb="sm">
            {t('uploads.title')}
          </Text>
          <EmptyState
            size="sm"
            variant="light"
            icon={<IconCloudUpload size={22} />}
            title={t('uploads.empty.title')}
            description={t('uploads.empty.description')}
            py="md"
          />
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
