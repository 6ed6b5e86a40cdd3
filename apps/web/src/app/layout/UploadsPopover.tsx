import {
  ActionIcon,
  Button,
  Divider,
  EmptyState,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconCloudUpload } from '@tabler/icons-react';
import { isActive } from '../../features/uploads/upload-engine.ts';
import { uploadHistory } from '../../features/uploads/upload-service.ts';
import { UploadHistoryList } from '../../features/uploads/UploadHistoryList.tsx';
import { UploadItemRow } from '../../features/uploads/UploadItemRow.tsx';
import { useUploadQueueCount } from '../../features/uploads/upload-queue.store.ts';
import { useUploadHistory, useUploadItems } from '../../features/uploads/useUploads.ts';

/** This browser's uploads: the files queued or running with their progress, then the latest 50 notifications. */
export function UploadsPopover() {
  const { t } = useTranslation();
  const queued = useUploadQueueCount();
  const items = useUploadItems();
  const history = useUploadHistory();
  const active = items.filter(isActive);
  const [opened, setOpened] = useState(false);
  return (
    <Indicator disabled={queued === 0} label={queued} size={16} offset={6} data-testid="uploads-indicator">
      <Popover opened={opened} onChange={setOpened} width={360} position="bottom-end" shadow="md" radius="md" withArrow>
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
          {active.length === 0 && history.length === 0 ? (
            <EmptyState
              size="sm"
              variant="light"
              icon={<IconCloudUpload size={22} />}
              title={t('uploads.empty.title')}
              description={t('uploads.empty.description')}
              py="md"
            />
          ) : (
            <ScrollArea.Autosize mah={420} type="auto" offsetScrollbars>
              <Stack gap="sm">
                {active.length > 0 && (
                  <Stack gap="sm" aria-live="polite" data-testid="uploads-active">
                    <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                      {t('uploads.history.inProgress')}
                    </Text>
                    {active.map((item) => (
                      <UploadItemRow key={item.id} item={item} showCase />
                    ))}
                  </Stack>
                )}
                {active.length > 0 && history.length > 0 && <Divider />}
                {history.length > 0 && (
                  <Stack gap="xs">
                    <Group justify="space-between">
                      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                        {t('uploads.history.title')}
                      </Text>
                      <Button size="compact-xs" variant="subtle" color="gray" onClick={() => uploadHistory.clear()}>
                        {t('uploads.actions.clearHistory')}
                      </Button>
                    </Group>
                    <UploadHistoryList entries={history} onNavigate={() => setOpened(false)} />
                  </Stack>
                )}
              </Stack>
            </ScrollArea.Autosize>
          )}
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
