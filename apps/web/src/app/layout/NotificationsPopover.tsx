import {
  ActionIcon,
  Anchor,
  Box,
  Divider,
  EmptyState,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconArrowRight, IconAt, IconBell, IconSpeakerphone } from '@tabler/icons-react';
import { MentionItem } from '../../features/notices/MentionItem.tsx';
import { useSessionLive } from '../auth/useSessionLive.ts';
import { useMentions, useNoticeBadges, useNotices } from '../../features/notices/notices.queries.ts';

/** Part 3 §2: the bell shows the first page of ten of each. */
const POPOVER_LIMIT = 10;

interface PanelProps {
  icon: ReactNode;
  empty: string;
  linkLabel: string;
  to: string;
  onNavigate: () => void;
  testId: string;
  /** The latest items; empty shows the empty state. */
  items: ReactNode[];
}

/** One tab: the latest 10 items, then a link to the full list. */
function Panel({ icon, empty, linkLabel, to, onNavigate, testId, items }: PanelProps) {
  return (
    <>
      {items.length === 0 ? (
        <EmptyState size="sm" variant="light" icon={icon} title={empty} py="xl" data-testid={testId} />
      ) : (
        <ScrollArea.Autosize mah={360}>
          <Stack gap={0}>
            {items.map((item, index) => (
              <Box
                key={index}
                px="md"
                py="xs"
                style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
              >
                {item}
              </Box>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
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
  const live = useSessionLive();
  const badges = useNoticeBadges(live).data;
  // The lists are asked for when the popover opens; only the badge is kept up to date in the background.
  const notices = useNotices('reader', 1, 'UNREAD', POPOVER_LIMIT, live && opened);
  const mentions = useMentions(POPOVER_LIMIT, live && opened);
  const unread = badges?.unreadNoticeCount ?? 0;
  const noticeItems = (notices.data?.data ?? []).map((notice) => (
    <Stack key={notice.id} gap={2} data-testid="popover-notice">
      <Anchor component={Link} to={`/notices/${notice.id}`} size="sm" fw={600} onClick={close}>
        {notice.title}
      </Anchor>
      <Text size="xs" c="dimmed" lineClamp={2}>
        {notice.overview}
      </Text>
    </Stack>
  ));
  const mentionItems = (mentions.data?.pages[0]?.data ?? []).map((mention) => (
    <MentionItem key={mention.id} mention={mention} onNavigate={close} />
  ));
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
          <Indicator
            disabled={unread === 0 && !badges?.hasNewMention}
            label={unread > 0 ? unread : undefined}
            size={unread > 0 ? 16 : 9}
            color="red"
            offset={3}
            data-testid="notifications-badge"
            data-unread={unread}
          >
            <IconBell size={22} />
          </Indicator>
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
              items={noticeItems}
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
              items={mentionItems}
            />
          </Tabs.Panel>
        </Tabs>
      </Popover.Dropdown>
    </Popover>
  );
}
