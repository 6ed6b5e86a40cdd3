import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import i18n from '../i18n/index.ts';
import { DatesLocaleProvider } from './DatesLocaleProvider.tsx';
import { AppErrorBoundary } from './errors/AppErrorBoundary.tsx';
import { theme } from './theme.ts';

// Separate component so the modal button labels follow the language switch.
function TranslatedModalsProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <ModalsProvider labels={{ confirm: t('common.confirm'), cancel: t('common.cancel') }}>{children}</ModalsProvider>
  );
}

interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

export function AppProviders({ queryClient, children }: AppProvidersProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} defaultColorScheme="light">
          {/* Toasts render outside the app's own providers: a failing one must not blank the page either. */}
          <AppErrorBoundary>
            <Notifications position="bottom-right" limit={5} />
            <DatesLocaleProvider>
              <TranslatedModalsProvider>{children}</TranslatedModalsProvider>
            </DatesLocaleProvider>
          </AppErrorBoundary>
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
