import { Anchor, Text, ThemeIcon } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import { FullPageMessage } from '../../components/FullPageMessage.tsx';
import { IconRefresh } from '@tabler/icons-react';

function reload() {
  window.location.reload();
}

/**
 * Spec part 3 §2: shown when the page cannot go on with the files it has (a chunk of an older build is gone after a
 * deployment). Reloading fetches the current build.
 */
export function UpdateFallbackPage() {
  const { t } = useTranslation();
  return (
    <FullPageMessage
      testId="update-fallback"
      title={t('update.fallback.title')}
      icon={
        <ThemeIcon size={56} radius="md" variant="light">
          <IconRefresh size={30} />
        </ThemeIcon>
      }
    >
      <Text c="dark">
        <Trans
          i18nKey="update.fallback.reload"
          components={{
            reload: (
              <Anchor
                component="button"
                type="button"
                fz="inherit"
                underline="always"
                onClick={reload}
                data-testid="reload-link"
              />
            ),
          }}
        />
      </Text>
      <Text size="sm">{t('update.fallback.support')}</Text>
    </FullPageMessage>
  );
}
