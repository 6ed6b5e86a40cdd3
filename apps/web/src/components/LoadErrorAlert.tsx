import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorText } from '../i18n/error-text.ts';
import { IconAlertCircle } from '@tabler/icons-react';

interface LoadErrorAlertProps {
  title: string;
  error: unknown;
  retryLabel: string;
  onRetry: () => unknown;
  testId: string;
}

/** What a screen shows when its data failed to load: the reason in the user's language, and a way to try again. */
export function LoadErrorAlert({ title, error, retryLabel, onRetry, testId }: LoadErrorAlertProps) {
  const { t } = useTranslation();
  return (
    <Alert variant="light" color="red" icon={<IconAlertCircle size={20} />} title={title} data-testid={testId}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{errorText(error, t)}</Text>
        <Button size="xs" variant="outline" color="red" onClick={() => void onRetry()}>
          {retryLabel}
        </Button>
      </Stack>
    </Alert>
  );
}
