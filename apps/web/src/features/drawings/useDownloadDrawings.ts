import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthError } from '../../api/client.ts';
import { fetchBinary, saveBlob } from '../case-images/fetch-binary.ts';

/** drawings-20261124-1930.zip, in the user's local time. */
export function drawingsFilename(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  const day = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
  return `drawings-${day}-${pad(now.getHours())}${pad(now.getMinutes())}.zip`;
}

/** POST drawings/download for some images, saved as a zip, with the messages of part 2 §8. */
export function useDownloadDrawings() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const download = async (imageIds: readonly string[]) => {
    if (imageIds.length === 0 || busy) return;
    setBusy(true);
    try {
      const zip = await fetchBinary('drawings/download', { json: { imageIds }, timeout: false });
      saveBlob(zip, drawingsFilename());
      notifications.show({ color: 'teal', message: t('drawings.download.succeeded') });
    } catch (error) {
      const notFound = error instanceof AuthError;
      notifications.show({
        color: 'red',
        message: t(notFound ? 'drawings.download.notFound' : 'drawings.download.failed'),
      });
    } finally {
      setBusy(false);
    }
  };
  return { download: (imageIds: readonly string[]) => void download(imageIds), busy };
}
