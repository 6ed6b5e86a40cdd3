import { Alert, List } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconAlertCircle } from '@tabler/icons-react';

/** Chosen files whose reading failed (part 1 §8 "Parsing in upload dialog"): each named, none of them sent. */
export function ParseErrorAlert({ names, onClose }: { names: readonly string[]; onClose: () => void }) {
  const { t } = useTranslation();
  if (names.length === 0) return null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle size={18} />}
      data-testid="parse-error-alert"
      role="alert"
      withCloseButton
      closeButtonLabel={t('uploads.actions.close')}
      onClose={onClose}
    >
      <List size="sm" spacing={2}>
        {names.map((name) => (
          <List.Item key={name}>{t('files.parseFailed', { filename: name })}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
