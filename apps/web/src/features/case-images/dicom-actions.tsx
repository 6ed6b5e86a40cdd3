import type { Image } from '@pathology/contract';
import { Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { IconFileZip, IconLink } from '@tabler/icons-react';
import { errorText } from '../../i18n/error-text.ts';
import { fetchBinary, saveBlob } from './fetch-binary.ts';

/** Where a DICOM client (Slim, QuPath) finds the slide: its series under our DICOMweb root. */
export function dicomwebAddress(image: Pick<Image, 'dicom'>, origin: string): string {
  const { studyInstanceUid, seriesInstanceUid } = image.dicom;
  return `${origin}/dicomweb/studies/${studyInstanceUid}/series/${seriesInstanceUid}`;
}

/** The export's name, as the server's Content-Disposition gives it. */
export function dicomZipName(image: Pick<Image, 'displayName'>): string {
  return `${image.displayName.replace(/\.[^.]*$/, '')}.dicom.zip`;
}

/**
 * Which DICOM items a slide offers: its DICOMweb series from the moment it is viewable (frames are cut from the
 * original while it converts), its Part 10 files once converted (their frames must be stored to be counted).
 */
export function dicomOffers(image: Pick<Image, 'status' | 'viewable'>): { download: boolean; address: boolean } {
  const converted = image.status === 'available';
  return { download: converted, address: converted || image.viewable };
}

/** "Download as DICOM" and "Copy DICOMweb address", each ending in a toast. */
function useDicomActions() {
  const { t } = useTranslation();

  const download = (image: Image) => {
    const id = `dicom-download-${image.id}`;
    const name = image.displayName;
    notifications.show({ id, loading: true, message: t('caseImages.dicom.downloading', { name }), autoClose: false });
    fetchBinary(`/images/${encodeURIComponent(image.id)}/dicom`, { timeout: false })
      .then((blob) => {
        saveBlob(blob, dicomZipName(image));
        notifications.update({
          id,
          loading: false,
          color: 'teal',
          message: t('caseImages.dicom.downloaded', { name }),
          autoClose: 4_000,
        });
      })
      .catch((error: unknown) =>
        notifications.update({
          id,
          loading: false,
          color: 'red',
          title: t('caseImages.dicom.downloadFailed', { name }),
          message: errorText(error, t),
          autoClose: 6_000,
        }),
      );
  };

  const copyAddress = (image: Image) => {
    // The clipboard exists only on secure pages (HTTPS or localhost); elsewhere the failure toast says so.
    const address = dicomwebAddress(image, window.location.origin);
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(address))
      .then(() => notifications.show({ color: 'teal', message: t('caseImages.dicom.copied'), autoClose: 4_000 }))
      .catch(() =>
        notifications.show({
          color: 'red',
          title: t('caseImages.dicom.copyFailed'),
          message: address,
          autoClose: false,
        }),
      );
  };

  return { download, copyAddress };
}

interface DicomMenuItemsProps {
  image: Image;
  /** The case's canDownloadDrawings: the server lets the same users export (403 otherwise). */
  canExport: boolean;
}

/** The slide menu's DICOM items (issue 45), in the case page's image card and the viewer. */
export function DicomMenuItems({ image, canExport }: DicomMenuItemsProps) {
  const { t } = useTranslation();
  const actions = useDicomActions();
  const offers = dicomOffers(image);
  return (
    <>
      {canExport && (
        <Menu.Item
          leftSection={<IconFileZip size={15} />}
          disabled={!offers.download}
          onClick={() => actions.download(image)}
          data-testid="image-dicom-download"
        >
          {t('caseImages.dicom.download')}
        </Menu.Item>
      )}
      <Menu.Item
        leftSection={<IconLink size={15} />}
        disabled={!offers.address}
        onClick={() => actions.copyAddress(image)}
        data-testid="image-dicomweb-copy"
      >
        {t('caseImages.dicom.copyAddress')}
      </Menu.Item>
    </>
  );
}
