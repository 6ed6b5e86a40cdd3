import { Alert, Text } from '@mantine/core';
import { IconAlertCircle } from '../../components/icons.tsx';

/** The banner a rejected case form shows above its fields, with each message the server gave. */
export function FormErrorBanner({ title, messages }: { title: string; messages: readonly string[] }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle />} title={title} data-testid="case-form-banner">
      {messages.map((message) => (
        <Text key={message} size="sm">
          {message}
        </Text>
      ))}
    </Alert>
  );
}
