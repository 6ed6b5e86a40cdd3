import { Alert, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { IconAlertCircle, IconArrowLeft, IconDownload } from '@tabler/icons-react';
import { saveBlob } from '../case-images/fetch-binary.ts';
import { usePdfBytes } from './attachments.queries.ts';
import { PDF_VIEWER_HEIGHT } from './pdf-zoom.ts';
import { PdfViewer } from './PdfViewer.tsx';

/** /cases/{caseId}/attachments/{filename}/{attachmentId}: a PDF attachment, read with the bearer token (part 2 §2). */
export function PdfPreviewPage() {
  const { t } = useTranslation();
  const { caseId = '', filename = '', attachmentId = '' } = useParams();
  const loaded = usePdfBytes(caseId, attachmentId);
  const [renderFailed, setRenderFailed] = useState(false);
  const name = loaded.data?.detail.filename ?? filename;

  return (
    <Stack gap="md" data-testid="pdf-preview">
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Button
            component={Link}
            to={`/cases/${encodeURIComponent(caseId)}`}
            variant="default"
            size="xs"
            leftSection={<IconArrowLeft size={15} />}
            data-testid="pdf-back"
          >
            {t('attachments.pdf.back')}
          </Button>
          <Title order={2} fz="lg" lineClamp={1} title={name} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Title>
        </Group>
        {loaded.data && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconDownload size={15} />}
            onClick={() => saveBlob(new Blob([loaded.data.data.slice()], { type: 'application/pdf' }), name)}
            data-testid="pdf-download"
          >
            {t('attachments.pdf.download')}
          </Button>
        )}
      </Group>
      {loaded.isPending && (
        <Stack gap="xs" aria-busy data-testid="pdf-loading">
          <Text size="sm" c="dimmed">
            {t('attachments.pdf.loading')}
          </Text>
          <Skeleton height={PDF_VIEWER_HEIGHT} radius="md" />
        </Stack>
      )}
      {(loaded.isError || renderFailed) && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />} data-testid="pdf-error">
          {t('attachments.messages.previewFailed')}
        </Alert>
      )}
      {loaded.data && !renderFailed && <PdfViewer data={loaded.data.data} onFailed={() => setRenderFailed(true)} />}
    </Stack>
  );
}
