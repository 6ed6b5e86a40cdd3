import type { Attachment } from '@pathology/contract';
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { attachmentErrorText, rejectionNotice } from './attachment-messages.ts';
import { attachmentUploads } from './attachment-uploads.store.ts';
import { ATTACHMENT_REJECTIONS, selectAttachmentFiles } from './attachment-validation.ts';
import {
  addToCachedList,
  downloadAttachment,
  refreshAfterAttachmentChange,
  useDeleteAttachment,
} from './attachments.queries.ts';

export interface AttachmentActions {
  add: (files: File[]) => void;
  download: (attachment: Attachment) => void;
  remove: (attachment: Attachment) => void;
  /** Attachments with a download or deletion under way. */
  busy: ReadonlySet<string>;
}

/** Add (validated, then uploaded with progress), download and delete of the attachments tab (part 2 §4, §5, §8). */
export function useAttachmentActions(caseId: string, takenNames: readonly string[]): AttachmentActions {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const deletion = useDeleteAttachment(caseId);
  const [downloading, setDownloading] = useState<ReadonlySet<string>>(new Set());
  const busy = new Set(downloading);
  if (deletion.isPending && deletion.variables) busy.add(deletion.variables);

  const add = (files: File[]) => {
    const { accepted, rejected } = selectAttachmentFiles(files, takenNames);
    for (const reason of ATTACHMENT_REJECTIONS) {
      const names = rejected[reason];
      if (names) notifications.show({ color: 'red', autoClose: 8_000, ...rejectionNotice(reason, names, t) });
    }
    for (const file of accepted) {
      attachmentUploads.start(caseId, file, {
        onComplete: (attachment) => {
          addToCachedList(queryClient, caseId, attachment);
          void refreshAfterAttachmentChange(queryClient, caseId);
          notifications.show({
            color: 'teal',
            message: t('attachments.upload.done', { filename: attachment.filename }),
          });
        },
        onError: (error, upload) =>
          notifications.show({
            color: 'red',
            title: t('attachments.upload.failed', { filename: upload.filename }),
            message: attachmentErrorText(error, t),
          }),
      });
    }
  };

  const download = (attachment: Attachment) => {
    setDownloading((ids) => new Set(ids).add(attachment.id));
    downloadAttachment(caseId, attachment)
      .catch((error: unknown) =>
        notifications.show({
          color: 'red',
          title: t('attachments.messages.downloadFailed', { filename: attachment.filename }),
          message: attachmentErrorText(error, t),
        }),
      )
      .finally(() =>
        setDownloading((ids) => {
          const next = new Set(ids);
          next.delete(attachment.id);
          return next;
        }),
      );
  };

  const remove = (attachment: Attachment) =>
    modals.openConfirmModal({
      title: t('attachments.messages.deleteTitle'),
      centered: true,
      children: (
        <Text size="sm" data-testid="attachment-delete-dialog">
          {t('attachments.messages.deleteConfirm')}
          <Text span fw={600} display="block" mt={4}>
            {attachment.filename}
          </Text>
        </Text>
      ),
      labels: { confirm: t('attachments.actions.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'attachment-delete-confirm' },
      onConfirm: () =>
        deletion.mutate(attachment.id, {
          onSuccess: () =>
            notifications.show({
              color: 'teal',
              message: t('attachments.deleted', { filename: attachment.filename }),
            }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              title: t('attachments.messages.deleteFailed', { filename: attachment.filename }),
              message: attachmentErrorText(error, t),
            }),
        }),
    });

  return { add, download, remove, busy };
}
