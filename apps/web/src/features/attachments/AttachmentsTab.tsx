import type { Case } from '@pathology/contract';
import { Alert, Button, EmptyState, FileButton, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { IconAlertCircle, IconPaperclip, IconPlus } from '@tabler/icons-react';
import { AttachmentTable } from './AttachmentTable.tsx';
import { attachmentErrorText } from './attachment-messages.ts';
import { useAttachmentUploads } from './attachment-uploads.store.ts';
import { SUPPORTED_ATTACHMENT_EXTENSIONS } from './attachment-validation.ts';
import { useAttachments } from './attachments.queries.ts';
import { useAttachmentActions } from './useAttachmentActions.tsx';

const ACCEPT = SUPPORTED_ATTACHMENT_EXTENSIONS.join(',');

/** The Attachments tab of case detail (part 2 §2): the case's files by name, with add, preview, download, delete. */
export function AttachmentsTab({ item }: { item: Case }) {
  const { t } = useTranslation();
  const found = useAttachments(item.id);
  const uploads = useAttachmentUploads(item.id);
  const canEdit = item.userCapabilities.canEdit;
  const attachments = found.data?.attachments ?? [];
  const actions = useAttachmentActions(item.id, [
    ...attachments.map((attachment) => attachment.filename),
    ...uploads.map((upload) => upload.filename),
  ]);

  // Cleared after each choice, so choosing the same file again (after a cancelled upload) still fires.
  const resetPicker = useRef<() => void>(null);
  const choose = (files: File[]) => {
    actions.add(files);
    resetPicker.current?.();
  };

  const header = (
    <Group justify="space-between" align="flex-start" gap="sm" wrap="nowrap">
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Title order={3} fz="md">
          {found.data ? t('attachments.count', { count: attachments.length }) : t('caseDetail.tabs.attachments')}
        </Title>
        {canEdit && (
          <Text size="xs" c="dimmed" data-testid="attachments-supported">
            {t('attachments.supported', { extensions: SUPPORTED_ATTACHMENT_EXTENSIONS.join(' ') })}
          </Text>
        )}
      </Stack>
      {canEdit && (
        <FileButton onChange={choose} accept={ACCEPT} multiple resetRef={resetPicker}>
          {(props) => (
            <Button
              {...props}
              size="xs"
              leftSection={<IconPlus size={15} />}
              style={{ flex: 'none' }}
              data-testid="add-attachments"
            >
              {t('attachments.add')}
            </Button>
          )}
        </FileButton>
      )}
    </Group>
  );

  if (found.isPending) {
    return (
      <Stack gap="md" data-testid="attachments-loading" aria-busy>
        {header}
        <Skeleton height={36} />
        <Skeleton height={36} />
      </Stack>
    );
  }
  if (found.isError) {
    return (
      <Stack gap="md">
        {header}
        <Alert variant="light" color="red" icon={<IconAlertCircle size={20} />} data-testid="attachments-error">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('attachments.loadFailed', { message: attachmentErrorText(found.error, t) })}</Text>
            <Button size="xs" variant="outline" color="red" onClick={() => void found.refetch()}>
              {t('attachments.retry')}
            </Button>
          </Stack>
        </Alert>
      </Stack>
    );
  }

  return (
    <Stack gap="md" data-testid="attachments-tab">
      {header}
      {attachments.length === 0 && uploads.length === 0 ? (
        <EmptyState
          variant="light"
          py="xl"
          icon={<IconPaperclip size={28} />}
          title={t('attachments.empty.title')}
          description={t(canEdit ? 'attachments.empty.canEdit' : 'attachments.empty.readOnly')}
          data-testid="attachments-empty"
        />
      ) : (
        <AttachmentTable
          caseId={item.id}
          attachments={attachments}
          uploads={uploads}
          canEdit={canEdit}
          actions={actions}
        />
      )}
    </Stack>
  );
}
