import { Alert } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconAlertTriangle } from '@tabler/icons-react';
import { authConfigQuery } from '../auth/auth-config.queries.ts';

/** While the server's CHAOS setting is on, says so: slow answers and failures are the demonstration, not a fault. */
export function ChaosBanner() {
  const { t } = useTranslation();
  const chaos = useQuery(authConfigQuery()).data?.chaos;
  if (!chaos) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={t('chaos.title')}
      mb="md"
      role="status"
      data-testid="chaos-banner"
    >
      {t('chaos.description', {
        min: chaos.delayMs[0],
        max: chaos.delayMs[1],
        percent: Math.round(chaos.errorRate * 1000) / 10,
        routes: chaos.routes.join(', '),
      })}
    </Alert>
  );
}
