import { Button, Center, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';

interface ViewerMessageProps {
  title: string;
  description?: ReactNode;
  loading?: boolean;
  /** Link back to the case; omitted while loading. */
  backHref?: string;
  onRetry?: () => void;
  testId: string;
}

/** What the viewer area says instead of a slide: loading, not found, not available yet, failed. */
export function ViewerMessage({ title, description, loading, backHref, onRetry, testId }: ViewerMessageProps) {
  const { t } = useTranslation();
  return (
    <Center style={{ flex: 1 }} p="md" data-testid={testId} aria-busy={loading || undefined}>
      <Stack align="center" gap="sm" maw={460} ta="center" role={loading ? 'status' : 'alert'}>
        {loading ? (
          <Loader type="dots" />
        ) : (
          <ThemeIcon size={48} radius="xl" variant="light" color="orange">
            <IconAlertCircle size={26} />
          </ThemeIcon>
        )}
        <Title order={2} fz="h4">
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        )}
        {(backHref ?? onRetry) && (
          <Stack gap="xs" align="center" mt="xs">
            {onRetry && (
              <Button size="xs" variant="light" onClick={onRetry}>
                {t('viewer.retry')}
              </Button>
            )}
            {backHref && (
              <Button
                component={Link}
                to={backHref}
                size="xs"
                variant="default"
                leftSection={<IconArrowLeft size={15} />}
                data-testid="viewer-message-back"
              >
                {t('viewer.back')}
              </Button>
            )}
          </Stack>
        )}
      </Stack>
    </Center>
  );
}
