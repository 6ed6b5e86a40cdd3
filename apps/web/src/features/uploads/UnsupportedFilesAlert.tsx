import { Alert, List } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconAlertCircle } from '@tabler/icons-react';

/**
 * Files left out of a selection. When nothing was supported the spec's "The selected files are not supported."
 * heads the list; otherwise a lighter note.
 */
export function UnsupportedFilesAlert({
  names,
  noneSupported,
  onClose,
}: {
  names: readonly string[];
  noneSupported: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  if (names.length === 0) return null;
  return (
    <Alert
      color={noneSupported ? 'red' : 'yellow'}
      variant="light"
      icon={<IconAlertCircle size={18} />}
      data-testid="unsupported-files-alert"
      role="alert"
      title={noneSupported ? t('uploads.unsupported.none') : t('uploads.unsupported.some')}
      withCloseButton
      closeButtonLabel={t('uploads.actions.close')}
      onClose={onClose}
    >
      <List size="xs" spacing={2}>
        {names.map((name) => (
          <List.Item key={name}>{name}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
