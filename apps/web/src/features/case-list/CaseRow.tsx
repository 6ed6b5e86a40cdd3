import { ActionIcon, Anchor, Badge, Checkbox, Group, Table, Text, Tooltip } from '@mantine/core';
import { PRIVATE_LABEL_NAME, type CaseListItem } from '@pathology/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Abbreviated } from '../../components/Abbreviated.tsx';
import { PublicLabelPicker } from '../../components/labels/PublicLabelPicker.tsx';
import { StarToggle } from '../../components/labels/StarToggle.tsx';
import {
  caseStarAction,
  casePublicLabelAction,
  casePublicLabelCoverage,
  distinctPublicLabels,
  isCaseStarred,
} from '../../components/labels/label-toggle.ts';
import { publicLabel, STAR_LABEL } from '../../components/labels/label.api.ts';
import type { CaseListSetting, useLabelChange } from './case-list.queries.ts';
import { CaseImages } from './CaseImages.tsx';
import { columnCount } from './CaseTableHeader.tsx';
import { formatDate } from './list-state.ts';
import { IconChevronRight, IconMessage, IconPaperclip, IconPhoto } from '@tabler/icons-react';
import { StatusCounters } from './status-badges.tsx';

export interface CaseRowProps {
  item: CaseListItem;
  setting: CaseListSetting;
  href: (subPath?: string) => string;
  expanded: boolean;
  onExpand: () => void;
  selected: ReadonlySet<string>;
  onSelect: (imageIds: string[], checked: boolean) => void;
  labelChange: ReturnType<typeof useLabelChange>;
}

function Count({ icon, value, label }: { icon: ReactNode; value: number; label: string }) {
  return (
    <Tooltip label={label} openDelay={300}>
      <Group gap={3} wrap="nowrap" c={value > 0 ? undefined : 'dimmed'} w={34} aria-label={label} role="img">
        {icon}
        <Text size="xs" ff="monospace">
          {value}
        </Text>
      </Group>
    </Tooltip>
  );
}

/** One case of the list; expands to its images (part 1 §2). */
export function CaseRow({ item, setting, href, expanded, onExpand, selected, onSelect, labelChange }: CaseRowProps) {
  const { t } = useTranslation();
  const caps = item.userCapabilities;
  const busy = labelChange.isPending;
  const selectable = item.images.filter((image) => image.status === 'available').map((image) => image.id);
  const selectedCount = selectable.filter((id) => selected.has(id)).length;
  const toggleLabel = t(expanded ? 'caseList.actions.collapse' : 'caseList.actions.expand', {
    caseNumber: item.caseNumber,
  });

  return (
    <>
      <Table.Tr
        data-testid="case-row"
        data-case-id={item.id}
        data-image-count={item.images.length}
        bg={expanded ? 'var(--mantine-color-violet-light)' : undefined}
      >
        <Table.Td>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            onClick={onExpand}
            aria-label={toggleLabel}
            aria-expanded={expanded}
            data-testid="case-expand"
          >
            <IconChevronRight
              size={15}
              style={{ transform: expanded ? 'rotate(90deg)' : undefined, transition: 'transform 120ms' }}
            />
          </ActionIcon>
        </Table.Td>
        <Table.Td>
          <Checkbox
            size="xs"
            aria-label={t('caseList.columns.select', { caseNumber: item.caseNumber })}
            disabled={selectable.length === 0}
            checked={selectable.length > 0 && selectedCount === selectable.length}
            indeterminate={selectedCount > 0 && selectedCount < selectable.length}
            onChange={(event) => onSelect(selectable, event.currentTarget.checked)}
          />
        </Table.Td>
        <Table.Td>
          {caps.canViewLabelled && (
            <Group gap={2} wrap="nowrap">
              <StarToggle
                active={isCaseStarred(item)}
                disabled={!caps.canModifyPrivateLabelled || busy}
                onToggle={() =>
                  labelChange.mutate({
                    target: 'case',
                    caseId: item.id,
                    label: STAR_LABEL,
                    action: caseStarAction(item),
                  })
                }
              />
              <PublicLabelPicker
                shown={distinctPublicLabels(item).filter((name) => name !== PRIVATE_LABEL_NAME)}
                state={(name) => casePublicLabelCoverage(item, name)}
                onToggle={(name) =>
                  labelChange.mutate({
                    target: 'case',
                    caseId: item.id,
                    label: publicLabel(name),
                    action: casePublicLabelAction(item, name),
                  })
                }
                disabled={!caps.canModifyPublicLabelled || busy}
              />
            </Group>
          )}
        </Table.Td>
        <Table.Td>
          <Anchor component={Link} to={href()} size="sm" fw={600} ff="monospace" data-testid="case-link">
            {item.caseNumber}
          </Anchor>
          {item.diagnosis && (
            <Text size="xs" c="dimmed" lineClamp={1} maw={140} title={item.diagnosis} data-testid="case-diagnosis">
              <Abbreviated text={item.diagnosis} />
            </Text>
          )}
        </Table.Td>
        <Table.Td>
          <Group gap={6} wrap="nowrap">
            <Count
              icon={<IconPhoto size={13} />}
              value={item.numberOfImages}
              label={t('caseList.counts.images', { count: item.numberOfImages })}
            />
            <Count
              icon={<IconPaperclip size={13} />}
              value={item.numberOfAttachments}
              label={t('caseList.counts.attachments', { count: item.numberOfAttachments })}
            />
            <Count
              icon={<IconMessage size={13} />}
              value={item.numberOfComments}
              label={t('caseList.counts.comments', { count: item.numberOfComments })}
            />
          </Group>
        </Table.Td>
        <Table.Td data-testid="case-image-status">
          <StatusCounters counts={item.imageStatusCounts} images={item.images} />
        </Table.Td>
        {setting.group && (
          <Table.Td>
            <Text size="xs" lineClamp={3} miw={130} maw={220} title={item.organizationName} data-testid="case-group">
              {item.organizationName}
            </Text>
          </Table.Td>
        )}
        {setting.tags && (
          <Table.Td>
            <Group gap={4} wrap="wrap" miw={90} maw={130}>
              {item.tags.map((tag) => (
                <Badge
                  key={tag}
                  size="xs"
                  radius="sm"
                  variant="light"
                  color="violet"
                  tt="none"
                  fw={500}
                  data-testid="case-tag"
                >
                  {tag}
                </Badge>
              ))}
            </Group>
          </Table.Td>
        )}
        {setting.status && (
          <Table.Td>
            <Badge size="xs" radius="sm" variant="dot" color={item.isPublic ? 'teal' : 'gray'} tt="none">
              {t(item.isPublic ? 'caseList.caseStatus.public' : 'caseList.caseStatus.private')}
            </Badge>
          </Table.Td>
        )}
        {setting.created && (
          <Table.Td>
            <Text size="xs" ff="monospace" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {formatDate(item.createdAt)}
            </Text>
          </Table.Td>
        )}
      </Table.Tr>
      {expanded && (
        <Table.Tr data-testid="case-images-row">
          <Table.Td colSpan={columnCount(setting)} py={0} pl={40} bg="var(--mantine-color-body)">
            <CaseImages
              item={item}
              imageHref={(imageId) => href(`/images/${encodeURIComponent(imageId)}`)}
              selected={selected}
              onSelect={(imageId, checked) => onSelect([imageId], checked)}
              labelChange={labelChange}
            />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}
