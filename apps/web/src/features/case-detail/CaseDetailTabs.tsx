import type { Case } from '@pathology/contract';
import { Group, Paper, Tabs, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AttachmentsTab } from '../attachments/AttachmentsTab.tsx';
import { CaseImagesTab } from '../case-images/CaseImagesTab.tsx';
import { CaseCommentsTab } from './CaseCommentsTab.tsx';
import { CaseDetailsView } from './CaseDetailsView.tsx';
import { CasePermissionsTab } from './CasePermissionsTab.tsx';
import { EditCaseForm } from './EditCaseForm.tsx';
import { IconFileText, IconLock, IconMessage, IconPaperclip, IconPhoto } from '@tabler/icons-react';
import { CASE_DETAIL_TABS, type CaseDetailLocation, type CaseDetailTab } from './case-detail-tabs.ts';

interface CaseDetailTabsProps {
  item: Case;
  place: CaseDetailLocation;
  onTab: (tab: CaseDetailTab) => void;
  onEdit: (editing: boolean) => void;
}

function isTab(value: string | null): value is CaseDetailTab {
  return CASE_DETAIL_TABS.some((tab) => tab === value);
}

export function CaseDetailTabs({ item, place, onTab, onEdit }: CaseDetailTabsProps) {
  const { t } = useTranslation();
  const tabs: Record<CaseDetailTab, { icon: ReactNode; count?: number }> = {
    details: { icon: <IconFileText size={16} /> },
    images: { icon: <IconPhoto size={16} />, count: item.numberOfImages },
    attachments: { icon: <IconPaperclip size={16} />, count: item.numberOfAttachments },
    comments: { icon: <IconMessage size={16} />, count: item.numberOfComments },
    permissions: { icon: <IconLock size={16} /> },
  };

  return (
    <Paper withBorder radius="lg" data-testid="case-tabs">
      <Tabs
        value={place.tab}
        onChange={(value) => isTab(value) && onTab(value)}
        keepMounted={false}
        styles={{ tab: { paddingInline: 12 } }}
      >
        <Tabs.List px="md" pt="xs" style={{ overflowX: 'auto', flexWrap: 'nowrap' }}>
          {CASE_DETAIL_TABS.map((tab) => (
            <Tabs.Tab key={tab} value={tab} leftSection={tabs[tab].icon} data-testid={`case-tab-${tab}`}>
              <Group gap={6} wrap="nowrap">
                {t(`caseDetail.tabs.${tab}`)}
                {tabs[tab].count !== undefined && (
                  <Text
                    span
                    size="xs"
                    fw={600}
                    c="violet.7"
                    bg="violet.0"
                    px={7}
                    lh="18px"
                    style={{ borderRadius: 9 }}
                    data-testid={`case-tab-${tab}-count`}
                  >
                    {tabs[tab].count}
                  </Text>
                )}
              </Group>
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="details" p="lg">
          {place.editing ? (
            <EditCaseForm item={item} onDone={() => onEdit(false)} />
          ) : (
            <CaseDetailsView item={item} onEdit={() => onEdit(true)} />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="images" p="lg">
          <CaseImagesTab item={item} />
        </Tabs.Panel>
        <Tabs.Panel value="attachments" p="lg">
          <AttachmentsTab item={item} />
        </Tabs.Panel>
        <Tabs.Panel value="comments" p="lg">
          <CaseCommentsTab item={item} />
        </Tabs.Panel>
        <Tabs.Panel value="permissions" p="lg">
          <CasePermissionsTab item={item} />
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}
