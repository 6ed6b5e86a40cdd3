import { Button, Code, Group, Text, ThemeIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FullPageMessage } from '../../components/FullPageMessage.tsx';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorText } from '../../i18n/error-text.ts';
import { UpdateFallbackPage } from '../update-checker/UpdateFallbackPage.tsx';
import { isChunkLoadError } from './chunk-error.ts';

/** What an error boundary shows: the reload prompt for a stale build, otherwise a generic failure page. */
export function ErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (isChunkLoadError(error)) return <UpdateFallbackPage />;
  return (
    <FullPageMessage
      testId="error-page"
      title={t('errorPage.title')}
      icon={
        <ThemeIcon size={56} radius="md" variant="light" color="red">
          <IconAlertCircle size={30} />
        </ThemeIcon>
      }
      actions={
        <Group justify="center">
          <Button onClick={() => window.location.reload()}>{t('errorPage.reload')}</Button>
          <Button component="a" href="/" variant="default">
            {t('notFound.home')}
          </Button>
        </Group>
      }
    >
      <Text>{t('errorPage.description')}</Text>
      <Code block c="dimmed">
        {errorText(error, t)}
      </Code>
    </FullPageMessage>
  );
}
