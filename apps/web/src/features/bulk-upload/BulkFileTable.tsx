import { ActionIcon, Anchor, Badge, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatBytes } from '../uploads/file-types.ts';
import { translateUploadError } from '../uploads/upload-error-text.ts';
import { IconTrash } from '@tabler/icons-react';
import { skipReason, type BulkFile } from './bulk-upload.machine.ts';
import { caseNumberFromFilename } from '@pathology/contract';

/** The chosen files: before Preview with the expected case number, after it with the server's reading. */
export function BulkFileTable({
  files,
  previewed,
  onRemove,
}: {
  files: readonly BulkFile[];
  previewed: boolean;
  onRemove?: (key: string) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover withTableBorder verticalSpacing="xs" data-testid="bulk-file-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('bulkUpload.columns.filename')}</Table.Th>
            <Table.Th w={100}>{t('bulkUpload.columns.size')}</Table.Th>
            <Table.Th>{t('bulkUpload.columns.caseNumber')}</Table.Th>
            {previewed && <Table.Th>{t('bulkUpload.columns.case')}</Table.Th>}
            <Table.Th>{t('bulkUpload.columns.status')}</Table.Th>
            {onRemove && (
              <Table.Th w={48}>
                <VisuallyHidden>{t('bulkUpload.columns.actions')}</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {files.map((file) => {
            const reason = skipReason(file);
            const caseNumber =
              file.parsed?.caseNumber ?? (file.supported ? caseNumberFromFilename(file.file.name) : '');
            return (
              <Table.Tr key={file.key} data-testid="bulk-file-row" data-skipped={reason ? true : undefined}>
                <Table.Td>
                  <Text size="sm" c={reason ? 'dimmed' : undefined} style={{ wordBreak: 'break-all' }}>
                    {file.file.name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {formatBytes(file.file.size, i18n.language)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {caseNumber ? (
                    <Text size="sm">{caseNumber}</Text>
                  ) : (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  )}
                </Table.Td>
                {previewed && (
                  <Table.Td>
                    {file.parsed?.exists && file.parsed.caseId ? (
                      <Anchor component={Link} to={`/cases/${file.parsed.caseId}`} size="sm">
                        {t('bulkUpload.case.existing')}
                      </Anchor>
                    ) : file.parsed && !file.parsed.error ? (
                      <Badge size="sm" variant="light" color="violet">
                        {t('bulkUpload.case.new')}
                      </Badge>
                    ) : null}
                  </Table.Td>
                )}
                <Table.Td>
                  {reason === 'unsupported' ? (
                    <Badge size="sm" variant="light" color="gray">
                      {t('uploads.unsupported.label')}
                    </Badge>
                  ) : reason ? (
                    <Text size="sm" c="red" data-testid="bulk-file-error">
                      {translateUploadError(t, reason)}
                    </Text>
                  ) : (
                    <Badge size="sm" variant="light" color="teal">
                      {previewed ? t('bulkUpload.status.ready') : t('uploads.dialog.supported')}
                    </Badge>
                  )}
                </Table.Td>
                {onRemove && (
                  <Table.Td>
                    <Tooltip label={t('uploads.dialog.remove')}>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        onClick={() => onRemove(file.key)}
                        aria-label={t('uploads.dialog.removeFile', { filename: file.file.name })}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
