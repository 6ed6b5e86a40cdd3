import { Alert, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** The banner a rejected case form shows above its fields, with each message the server gave. */
export function FormErrorBanner({ title, messages }: { title: string; messages: readonly string[] }) {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle size={20} />}
      title={title}
      data-testid="case-form-banner"
    >
      {messages.map((message) => (
        <Text key={message} size="sm">
          {message}
        </Text>
      ))}
    </Alert>
  );
}
