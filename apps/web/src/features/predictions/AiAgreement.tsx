import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { aiConsent, useAiConsent, type AiGroup } from './ai-consent.ts';

/**
 * The AI-use agreement (part 2 §4): not dismissable by clicking outside or Escape; Agree is kept for
 * 30 days, Disagree turns AI features off for this session.
 */
export function AiAgreementDialog({ group }: { group: AiGroup | undefined }) {
  const { t } = useTranslation();
  const { askAgreement } = useAiConsent(group);
  return (
    <Modal
      opened={askAgreement}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title={t('predictions.agreement.title')}
      centered
      size="lg"
      data-testid="ai-agreement"
    >
      <Stack gap="sm">
        <Text size="sm">{t('predictions.agreement.intro')}</Text>
        <Text size="sm" fw={600}>
          {t('predictions.agreement.permitted')}
        </Text>
        <List size="sm">
          <List.Item>{t('predictions.agreement.education')}</List.Item>
          <List.Item>{t('predictions.agreement.research')}</List.Item>
        </List>
        <Text size="sm" fw={600}>
          {t('predictions.agreement.excluded')}
        </Text>
        <List size="sm">
          <List.Item>{t('predictions.agreement.diagnosis')}</List.Item>
          <List.Item>{t('predictions.agreement.structure')}</List.Item>
        </List>
        <Group justify="flex-end">
          <Button variant="default" onClick={aiConsent.refuse} data-testid="ai-disagree">
            {t('predictions.agreement.disagree')}
          </Button>
          <Button onClick={aiConsent.agree} data-testid="ai-agree">
            {t('predictions.agreement.agree')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The AI warning banner (part 2 §2), dismissable for 30 days. */
export function AiWarningBanner({ group }: { group: AiGroup | undefined }) {
  const { t } = useTranslation();
  const { showWarning } = useAiConsent(group);
  if (!showWarning) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      withCloseButton
      closeButtonLabel={t('predictions.warning.dismiss')}
      onClose={aiConsent.dismissWarning}
      data-testid="ai-warning"
    >
      {t('predictions.warning.text')}
    </Alert>
  );
}
