import { Center, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconMicroscope } from '@tabler/icons-react';

interface FullPageMessageProps {
  title?: ReactNode;
  children?: ReactNode;
  /** Replaces the app mark above the title, e.g. an alert icon. */
  icon?: ReactNode;
  /** Shows a spinner under the title: the page is on its way. */
  loading?: boolean;
  actions?: ReactNode;
  testId?: string;
}

/** A page of its own outside the app shell: start-up, sign-in progress, fatal errors, the reload prompt. */
export function FullPageMessage({ title, children, icon, loading, actions, testId }: FullPageMessageProps) {
  return (
    <Center mih="100dvh" p="md" bg="var(--mantine-color-gray-0)" data-testid={testId}>
      <Paper withBorder radius="lg" shadow="sm" p="xl" maw={480} w="100%">
        <Stack align="center" gap="md" ta="center" role={loading ? 'status' : undefined} aria-live="polite">
          {icon ?? (
            <ThemeIcon
              size={56}
              radius="md"
              variant="gradient"
              gradient={{ from: 'violet.7', to: 'grape.5', deg: 135 }}
            >
              <IconMicroscope size={32} />
            </ThemeIcon>
          )}
          {title && (
            <Title order={1} fz="h3">
              {title}
            </Title>
          )}
          {children && (
            <Stack gap="xs" c="dimmed">
              {typeof children === 'string' ? <Text>{children}</Text> : children}
            </Stack>
          )}
          {loading && <Loader size="md" type="dots" />}
          {actions}
        </Stack>
      </Paper>
    </Center>
  );
}
