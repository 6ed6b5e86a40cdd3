import { ActionIcon, Anchor, Divider, EmptyState, Group, Popover, Tabs } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconArrowRight, IconAt, IconBell, IconSpeakerphone } from '@tabler/icons-react';

interface PanelProps {
  icon: ReactNode;
  empty: string;
  linkLabel: string;
  to: string;
  onNavigate: () => void;
  testId: string;
}

/** One tab: the latest 10 items (filled in with notices and mentions), then a link to the full list. */
function Panel({ icon, empty, linkLabel, to, onNavigate, testId }: PanelProps) {
  return (
    <>
      <EmptyState size="sm" variant="light" icon={icon} title={empty} py="xl" data-testid={testId} />
      <Divider />
      <Group justify="flex-end" px="md" py="xs">
        <Anchor component={Link} to={to} size="sm" fw={500} onClick={onNavigate}>
          <Group gap={4} wrap="nowrap">
            {linkLabel}
            <IconArrowRight size={14} />
          </Group>
        </Anchor>
      </Group>
    </>
  );
}

/** The header bell (spec part 1 §1, part 3 §2): tabs Notice and Mention with links to the full lists. */
export function NotificationsPopover() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const close = () => setOpened(false);
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      width={360}
      position="bottom-end"
      shadow="md"
      radius="md"
      withArrow
      trapFocus
      returnFocus
    >
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          radius="md"
          // A controlled popover leaves the toggling to its target.
          onClick={() => setOpened((open) => !open)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') close();
          }}
          aria-label={t('notifications.title')}
          data-testid="notifications-button"
        >
          <IconBell size={22} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0} data-testid="notifications-popover">
        <Tabs defaultValue="notice">
          <Tabs.List grow>
            <Tabs.Tab
              value="notice"
              leftSection={<IconSpeakerphone size={16} />}
              data-testid="notifications-tab-notice"
            >
              {t('notifications.tabs.notice')}
            </Tabs.Tab>
            <Tabs.Tab value="mention" leftSection={<IconAt size={16} />} data-testid="notifications-tab-mention">
              {t('notifications.tabs.mention')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="notice">
            <Panel
              icon={<IconSpeakerphone size={22} />}
              empty={t('notifications.empty.notice')}
              linkLabel={t('notifications.allNotices')}
              to="/notices"
              onNavigate={close}
              testId="notifications-empty-notice"
            />
          </Tabs.Panel>
          <Tabs.Panel value="mention">
            <Panel
              icon={<IconAt size={22} />}
              empty={t('notifications.empty.mention')}
              linkLabel={t('notifications.allMentions')}
              to="/mentions"
              onNavigate={close}
              testId="notifications-empty-mention"
            />
          </Tabs.Panel>
        </Tabs>
      </Popover.Dropdown>
    </Popover>
  );
}
