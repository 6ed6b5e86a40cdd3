import { Button, Checkbox, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { CaseSearchResponseSchema, CopyImageResponseSchema, type CaseListItem, type Image } from '@pathology/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { errorText } from '../../i18n/error-text.ts';

/** "Copy image" (POST images/{id}/copy): find the destination by its case number, then copy. */
export function CopyImageDialog(props: {
  image: Image | null;
  onClose: () => void;
  onCopied: (caseId: string) => void;
}) {
  const { t } = useTranslation();
  const [caseNumber, setCaseNumber] = useState('');
  const [found, setFound] = useState<CaseListItem[] | null>(null);
  const [destination, setDestination] = useState<string | null>(null);
  const [copyPrediction, setCopyPrediction] = useState(false);
  const [busy, setBusy] = useState(false);
  const { image } = props;

  const find = async () => {
    const response = await api.post(
      '/cases/search',
      { query: [{ field: 'caseNumber', operator: 'is', value: caseNumber.trim() }], limit: 20 },
      { schema: CaseSearchResponseSchema },
    );
    const candidates = response.data.filter(
      (item) => item.userCapabilities.canUploadImage && item.id !== image?.caseId,
    );
    setFound(candidates);
    setDestination(candidates[0]?.id ?? null);
  };

  const copy = async () => {
    if (!image || !destination) return;
    setBusy(true);
    try {
      await api.post(
        `/images/${encodeURIComponent(image.id)}/copy`,
        { dstCaseId: destination, copyPrediction },
        { schema: CopyImageResponseSchema },
      );
      const target = found?.find((item) => item.id === destination);
      notifications.show({
        color: 'teal',
        message: t('caseImages.copy.succeeded', { caseNumber: target?.caseNumber ?? '' }),
      });
      props.onCopied(destination);
      props.onClose();
    } catch (error) {
      notifications.show({ color: 'red', title: t('caseImages.copy.failed'), message: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={image != null}
      onClose={props.onClose}
      title={t('caseImages.copy.title')}
      centered
      data-testid="copy-image-dialog"
    >
      <Stack gap="sm">
        <Text size="sm" fw={500}>
          {image?.displayName}
        </Text>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void find();
          }}
        >
          <Group align="flex-end" gap="xs">
            <TextInput
              label={t('caseImages.copy.caseNumber')}
              value={caseNumber}
              onChange={(event) => setCaseNumber(event.currentTarget.value)}
              style={{ flex: 1 }}
              data-testid="copy-image-case-number"
            />
            <Button type="submit" variant="light" disabled={caseNumber.trim() === ''} data-testid="copy-image-find">
              {t('caseImages.copy.search')}
            </Button>
          </Group>
        </form>
        {found?.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('caseImages.copy.noMatch')}
          </Text>
        )}
        {found && found.length > 0 && (
          <Radio.Group value={destination} onChange={setDestination}>
            <Stack gap={4}>
              {found.map((item) => (
                <Radio key={item.id} value={item.id} label={`${item.caseNumber} — ${item.organizationName}`} />
              ))}
            </Stack>
          </Radio.Group>
        )}
        <Checkbox
          label={t('caseImages.copy.copyPrediction')}
          checked={copyPrediction}
          onChange={(event) => setCopyPrediction(event.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('caseImages.copy.cancel')}
          </Button>
          <Button
            disabled={destination == null}
            loading={busy}
            onClick={() => void copy()}
            data-testid="copy-image-submit"
          >
            {t('caseImages.copy.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
