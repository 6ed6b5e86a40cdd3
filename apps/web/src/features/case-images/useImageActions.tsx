import type { Image } from '@pathology/contract';
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text.ts';
import { downloadOriginal, useDeleteImage, useReprocessImage } from './case-images.queries.ts';

export interface ImageActions {
  download: (image: Image) => void;
  reprocess: (image: Image) => void;
  remove: (image: Image) => void;
  /** Ids of images with a download or change under way, to disable their buttons. */
  busy: ReadonlySet<string>;
}

/** Download, reprocess and delete of the images tab: confirmations naming the image, and a toast for the outcome. */
export function useImageActions(caseId: string): ImageActions {
  const { t } = useTranslation();
  const deletion = useDeleteImage(caseId);
  const reprocessing = useReprocessImage(caseId);
  const [downloading, setDownloading] = useState<ReadonlySet<string>>(new Set());
  const busy = new Set(downloading);
  if (deletion.isPending && deletion.variables) busy.add(deletion.variables);
  if (reprocessing.isPending && reprocessing.variables) busy.add(reprocessing.variables);

  const download = (image: Image) => {
    setDownloading((ids) => new Set(ids).add(image.id));
    notifications.show({
      id: `download-${image.id}`,
      loading: true,
      message: t('caseImages.download.started', { name: image.filename }),
      autoClose: false,
    });
    downloadOriginal(image)
      .then(() => notifications.hide(`download-${image.id}`))
      .catch((error: unknown) =>
        notifications.update({
          id: `download-${image.id}`,
          loading: false,
          color: 'red',
          title: t('caseImages.download.failed', { name: image.filename }),
          message: errorText(error, t),
          autoClose: 6_000,
        }),
      )
      .finally(() =>
        setDownloading((ids) => {
          const next = new Set(ids);
          next.delete(image.id);
          return next;
        }),
      );
  };

  const reprocess = (image: Image) =>
    modals.openConfirmModal({
      title: t('caseImages.reprocess.title'),
      centered: true,
      children: <Text size="sm">{t('caseImages.reprocess.question', { name: image.displayName })}</Text>,
      labels: { confirm: t('caseImages.reprocess.confirm'), cancel: t('common.cancel') },
      confirmProps: { 'data-testid': 'image-reprocess-confirm' },
      onConfirm: () =>
        reprocessing.mutate(image.id, {
          onSuccess: () =>
            notifications.show({ color: 'teal', message: t('caseImages.reprocess.done', { name: image.displayName }) }),
          onError: (error) =>
            notifications.show({ color: 'red', title: t('caseImages.reprocess.failed'), message: errorText(error, t) }),
        }),
    });

  const remove = (image: Image) =>
    modals.openConfirmModal({
      title: t('caseImages.delete.title'),
      centered: true,
      children: (
        <Text size="sm" data-testid="image-delete-dialog">
          {t('caseImages.delete.question', { name: image.displayName })}
        </Text>
      ),
      labels: { confirm: t('caseImages.delete.confirm'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'image-delete-confirm' },
      onConfirm: () =>
        deletion.mutate(image.id, {
          onSuccess: () =>
            notifications.show({ color: 'teal', message: t('caseImages.delete.done', { name: image.displayName }) }),
          onError: (error) =>
            notifications.show({ color: 'red', title: t('caseImages.delete.failed'), message: errorText(error, t) }),
        }),
    });

  return { download, reprocess, remove, busy };
}
