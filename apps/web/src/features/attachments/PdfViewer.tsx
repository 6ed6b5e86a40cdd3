import { ActionIcon, Alert, Box, Button, Group, Loader, Paper, Text, Tooltip } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Document, Page, pdfjs } from 'react-pdf';
import 'react-pdf/dist/Page/AnnotationLayer.css';
import 'react-pdf/dist/Page/TextLayer.css';
import {
  IconAlertCircle,
  IconArrowsMaximize,
  IconChevronLeft,
  IconChevronRight,
  IconZoomIn,
  IconZoomOut,
} from '@tabler/icons-react';
import { FIT_ZOOM, PDF_VIEWER_HEIGHT, canZoom, clampPage, stepZoom } from './pdf-zoom.ts';

// pdf.js parses in a worker; Vite emits the worker file as an asset of this (lazy) chunk.
pdfjs.GlobalWorkerOptions.workerSrc = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url).toString();

/** The server's Content-Security-Policy forbids eval: pdf.js is told so rather than probing (a reported violation). */
const PDF_OPTIONS = { isEvalSupported: false };

/** Space around the page inside the viewer, in px. */
const GUTTER = 16;

/** A PDF (its bytes) in a 1200 px high viewer, one page at a time, with paging and zoom. */
export function PdfViewer({ data, onFailed }: { data: Uint8Array; onFailed: () => void }) {
  const { t } = useTranslation();
  const [pages, setPages] = useState(0);
  const [page, setPage] = useState(1);
  const [zoom, setZoom] = useState(FIT_ZOOM);
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy, once per document.
  const file = useMemo(() => ({ data: data.slice() }), [data]);
  const go = (to: number) => setPage(clampPage(to, pages));

  return (
    <Paper withBorder radius="md" data-testid="pdf-viewer">
      <Group
        justify="space-between"
        gap="sm"
        px="sm"
        py={6}
        role="toolbar"
        aria-label={t('attachments.pdf.toolbar')}
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group gap={4} wrap="nowrap">
          <Tooltip label={t('attachments.pdf.previous')} openDelay={300}>
            <ActionIcon
              variant="subtle"
              disabled={page <= 1}
              onClick={() => go(page - 1)}
              aria-label={t('attachments.pdf.previous')}
              data-testid="pdf-previous"
            >
              <IconChevronLeft size={18} />
            </ActionIcon>
          </Tooltip>
          <Text size="sm" miw={110} ta="center" aria-live="polite" data-testid="pdf-page">
            {pages > 0 ? t('attachments.pdf.page', { page, pages }) : '…'}
          </Text>
          <Tooltip label={t('attachments.pdf.next')} openDelay={300}>
            <ActionIcon
              variant="subtle"
              disabled={page >= pages}
              onClick={() => go(page + 1)}
              aria-label={t('attachments.pdf.next')}
              data-testid="pdf-next"
            >
              <IconChevronRight size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
        <Group gap={4} wrap="nowrap">
          <Tooltip label={t('attachments.pdf.zoomOut')} openDelay={300}>
            <ActionIcon
              variant="subtle"
              disabled={!canZoom(zoom, -1)}
              onClick={() => setZoom(stepZoom(zoom, -1))}
              aria-label={t('attachments.pdf.zoomOut')}
              data-testid="pdf-zoom-out"
            >
              <IconZoomOut size={18} />
            </ActionIcon>
          </Tooltip>
          <Text
            size="sm"
            w={48}
            ta="center"
            data-testid="pdf-zoom"
            aria-label={t('attachments.pdf.zoom', { percent: Math.round(zoom * 100) })}
          >
            {Math.round(zoom * 100)}%
          </Text>
          <Tooltip label={t('attachments.pdf.zoomIn')} openDelay={300}>
            <ActionIcon
              variant="subtle"
              disabled={!canZoom(zoom, 1)}
              onClick={() => setZoom(stepZoom(zoom, 1))}
              aria-label={t('attachments.pdf.zoomIn')}
              data-testid="pdf-zoom-in"
            >
              <IconZoomIn size={18} />
            </ActionIcon>
          </Tooltip>
          <Button
            size="compact-sm"
            variant="subtle"
            leftSection={<IconArrowsMaximize size={16} />}
            disabled={zoom === FIT_ZOOM}
            onClick={() => setZoom(FIT_ZOOM)}
            data-testid="pdf-fit"
          >
            {t('attachments.pdf.fit')}
          </Button>
        </Group>
      </Group>
      <Box
        h={PDF_VIEWER_HEIGHT}
        p={GUTTER}
        bg="gray.1"
        style={{ overflow: 'auto', display: 'flex', justifyContent: zoom > FIT_ZOOM ? 'flex-start' : 'center' }}
        tabIndex={0}
        aria-label={t('attachments.pdf.title')}
        data-testid="pdf-canvas"
      >
        <Document
          file={file}
          options={PDF_OPTIONS}
          onLoadSuccess={(pdf) => {
            setPages(pdf.numPages);
            setPage(1);
          }}
          onLoadError={onFailed}
          loading={<Loader m="xl" aria-label={t('attachments.pdf.loading')} />}
          error={
            <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />}>
              {t('attachments.messages.previewFailed')}
            </Alert>
          }
        >
          <Paper shadow="sm" radius={0} style={{ margin: '0 auto' }}>
            <Page pageNumber={page} height={(PDF_VIEWER_HEIGHT - 2 * GUTTER) * zoom} loading={<Loader m="xl" />} />
          </Paper>
        </Document>
      </Box>
    </Paper>
  );
}
