import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { translateUploadError } from '../uploads/upload-error-text.ts';
import { skipReason, type BulkFile } from './bulk-upload.machine.ts';

/** Lists the files that will not be uploaded, with why, before the upload starts. */
export function SkippedFilesDialog({
  opened,
  files,
  uploadCount,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  files: readonly BulkFile[];
  uploadCount: number;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const reasonText = (file: BulkFile) => {
    const reason = skipReason(file);
    return reason === 'unsupported' ? t('uploads.unsupported.label') : translateUploadError(t, reason);
  };
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={t('bulkUpload.skipped.title')}
      size="lg"
      centered
      data-testid="skipped-files-dialog"
    >
      <Stack gap="sm">
        <Text size="sm">{t('bulkUpload.skipped.description', { count: files.length })}</Text>
        <Table.ScrollContainer minWidth={400} maxHeight={320}>
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('bulkUpload.columns.filename')}</Table.Th>
                <Table.Th>{t('bulkUpload.columns.reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {files.map((file) => (
                <Table.Tr key={file.key}>
                  <Table.Td>{file.file.name}</Table.Td>
                  <Table.Td c="red">{reasonText(file)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('bulkUpload.actions.cancel')}
          </Button>
          <Button onClick={onConfirm} disabled={uploadCount === 0} data-testid="skipped-confirm">
            {t('bulkUpload.skipped.confirm', { count: uploadCount })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
