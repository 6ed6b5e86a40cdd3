import { PREVIEWABLE_ATTACHMENT_CONTENT_TYPES, type Attachment } from '@pathology/contract';
import { ActionIcon, Anchor, Group, Progress, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../lib/format-date.ts';
import { IconDownload, IconFile, IconFileTypePdf, IconTrash, IconX } from '@tabler/icons-react';
import { formatFileSize } from '../case-images/format-size.ts';
import type { AttachmentUpload } from './attachment-uploads.store.ts';
import type { AttachmentActions } from './useAttachmentActions.tsx';

export function isPreviewable(attachment: Pick<Attachment, 'contentType'>): boolean {
  return (PREVIEWABLE_ATTACHMENT_CONTENT_TYPES as readonly string[]).includes(attachment.contentType);
}

/** /cases/{caseId}/attachments/{filename}/{attachmentId}: the PDF preview (part 2 §2). */
export function previewHref(caseId: string, attachment: Pick<Attachment, 'id' | 'filename'>): string {
  return `/cases/${encodeURIComponent(caseId)}/attachments/${encodeURIComponent(attachment.filename)}/${encodeURIComponent(attachment.id)}`;
}

type Row = { kind: 'stored'; attachment: Attachment } | { kind: 'uploading'; upload: AttachmentUpload };

const nameOf = (row: Row) => (row.kind === 'stored' ? row.attachment.filename : row.upload.filename);

interface AttachmentTableProps {
  caseId: string;
  attachments: readonly Attachment[];
  uploads: readonly AttachmentUpload[];
  canEdit: boolean;
  actions: AttachmentActions;
}

/** Name (preview link for PDFs), size, upload date, and download / delete; rows being uploaded show their progress. */
export function AttachmentTable({ caseId, attachments, uploads, canEdit, actions }: AttachmentTableProps) {
  const { t } = useTranslation();
  const rows: Row[] = [
    ...attachments.map((attachment): Row => ({ kind: 'stored', attachment })),
    ...uploads.map((upload): Row => ({ kind: 'uploading', upload })),
  ].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));

  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="xs" highlightOnHover data-testid="attachments-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('attachments.columns.name')}</Table.Th>
            <Table.Th w={110}>{t('attachments.columns.size')}</Table.Th>
            <Table.Th w={120}>{t('attachments.columns.uploaded')}</Table.Th>
            <Table.Th w={96}>
              <VisuallyHidden>{t('attachments.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) =>
            row.kind === 'stored' ? (
              <StoredRow key={row.attachment.id} {...{ caseId, attachment: row.attachment, canEdit, actions }} />
            ) : (
              <UploadingRow key={row.upload.id} upload={row.upload} />
            ),
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function StoredRow({
  caseId,
  attachment,
  canEdit,
  actions,
}: {
  caseId: string;
  attachment: Attachment;
  canEdit: boolean;
  actions: AttachmentActions;
}) {
  const { t } = useTranslation();
  const previewable = isPreviewable(attachment);
  const busy = actions.busy.has(attachment.id);
  const Icon = previewable ? IconFileTypePdf : IconFile;
  return (
    <Table.Tr data-testid="attachment-row">
      <Table.Td>
        <Group gap={8} wrap="nowrap">
          <Icon size={18} color={`var(--mantine-color-${previewable ? 'red-7' : 'gray-6'})`} style={{ flex: 'none' }} />
          {previewable ? (
            <Anchor
              component={Link}
              to={previewHref(caseId, attachment)}
              size="sm"
              style={{ overflowWrap: 'anywhere' }}
              data-testid="attachment-preview-link"
            >
              {attachment.filename}
            </Anchor>
          ) : (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {attachment.filename}
            </Text>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatFileSize(attachment.sizeBytes)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatDate(attachment.createdAt)}</Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Tooltip label={t('attachments.actions.download')} openDelay={300}>
            <ActionIcon
              variant="subtle"
              loading={busy}
              onClick={() => actions.download(attachment)}
              aria-label={t('attachments.actions.downloadFor', { filename: attachment.filename })}
              data-testid="attachment-download"
            >
              <IconDownload size={17} />
            </ActionIcon>
          </Tooltip>
          {canEdit && (
            <Tooltip label={t('attachments.actions.delete')} openDelay={300}>
              <ActionIcon
                variant="subtle"
                color="red"
                disabled={busy}
                onClick={() => actions.remove(attachment)}
                aria-label={t('attachments.actions.deleteFor', { filename: attachment.filename })}
                data-testid="attachment-delete"
              >
                <IconTrash size={17} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function UploadingRow({ upload }: { upload: AttachmentUpload }) {
  const { t } = useTranslation();
  const percent = Math.round(upload.progress * 100);
  return (
    <Table.Tr data-testid="attachment-upload-row">
      <Table.Td>
        <Group gap={8} wrap="nowrap">
          <IconFile size={18} color="var(--mantine-color-gray-5)" style={{ flex: 'none' }} />
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {upload.filename}
          </Text>
        </Group>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed">
          {formatFileSize(upload.size)}
        </Text>
      </Table.Td>
      <Table.Td colSpan={2}>
        <Group gap="xs" wrap="nowrap">
          <Progress
            value={percent}
            animated
            striped
            size="md"
            style={{ flex: 1 }}
            aria-label={t('attachments.upload.progressOf', { filename: upload.filename })}
            data-testid="attachment-upload-progress"
          />
          <Text size="xs" c="dimmed" w={36} ta="right">
            {t('attachments.upload.percent', { percent })}
          </Text>
          <Tooltip label={t('attachments.upload.cancel')} openDelay={300}>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="sm"
              onClick={upload.abort}
              aria-label={t('attachments.upload.cancelFor', { filename: upload.filename })}
            >
              <IconX size={15} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
