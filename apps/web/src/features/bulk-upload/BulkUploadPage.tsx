import { Alert, Box, Button, Group, Loader, Paper, Stack, Stepper, Text } from '@mantine/core';
import { MAX_BATCH_PARSE_FILENAMES, type BatchParseItem } from '@pathology/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconAlertCircle, IconUpload } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { errorText } from '../../i18n/error-text.ts';
import { useAccountRoles } from '../account/account.queries.ts';
import { useCurrentOrganization } from '../organizations/useCurrentOrganization.ts';
import { unparsableFiles } from '../uploads/file-check.ts';
import { groupDicomSeries } from '../uploads/dicom-series.ts';
import { acceptOf } from '../uploads/file-types.ts';
import { isActive } from '../uploads/upload-engine.ts';
import { confirmAbortUploads, uploadEngine } from '../uploads/upload-service.ts';
import { useFileDrop } from '../uploads/useFileDrop.ts';
import { useUploadItems } from '../uploads/useUploads.ts';
import { parseBatch } from './bulk-upload.api.ts';
import { BULK_EXTENSIONS, skippedFiles, uploadableFiles, type BulkStep } from './bulk-upload.machine.ts';
import { dispatchBulk, getBulkState, useBulkState } from './bulk-upload.store.ts';
import { BulkFileTable } from './BulkFileTable.tsx';
import { BulkProgressList } from './BulkProgressList.tsx';
import { SkippedFilesDialog } from './SkippedFilesDialog.tsx';
import { startBulkUpload } from './start-bulk-upload.ts';

const STEP_INDEX: Record<BulkStep, number> = {
  adding: 0,
  parsing: 1,
  parsingError: 1,
  previewing: 1,
  uploading: 2,
  done: 3,
};

async function parseAll(organizationId: string, filenames: string[]): Promise<BatchParseItem[]> {
  const items: BatchParseItem[] = [];
  for (let start = 0; start < filenames.length; start += MAX_BATCH_PARSE_FILENAMES) {
    const chunk = filenames.slice(start, start + MAX_BATCH_PARSE_FILENAMES);
    items.push(...(await parseBatch({ organizationId, filenames: chunk })).data);
  }
  return items;
}

/** /bulk-upload: files named "<case number>--…" go to their cases, created when missing (part 1 §2, §4). */
export function BulkUploadPage() {
  const { t } = useTranslation();
  const state = useBulkState();
  const queryClient = useQueryClient();
  const { current, organizations } = useCurrentOrganization();
  const roles = useAccountRoles();
  const canCreate = (roles.data?.checks.isSuperUser ?? false) || (current?.userCapabilities.canCreateCase ?? false);
  const [skippedOpen, setSkippedOpen] = useState(false);
  const allItems = useUploadItems();
  const items = useMemo(() => allItems.filter((item) => state.itemIds.includes(item.id)), [allItems, state.itemIds]);
  // A slide's DICOM instances chosen together become one zip, so one image.
  const drop = useFileDrop(
    (files) => void groupDicomSeries(files).then((grouped) => dispatchBulk({ type: 'add', files: grouped })),
    state.step !== 'adding',
  );

  // The group-end: every file of the batch has finished, one way or the other.
  const running = items.some(isActive);
  useEffect(() => {
    if (state.step === 'uploading' && items.length > 0 && !running) {
      dispatchBulk({ type: 'groupEnd' });
      void queryClient.invalidateQueries({ queryKey: ['case-list'] });
    }
  }, [state.step, items.length, running, queryClient]);

  const preview = async () => {
    if (!current) return;
    dispatchBulk({ type: 'preview', organizationId: current.id });
    const supported = getBulkState().files.filter((file) => file.supported);
    // Part 1 §8: a file that cannot be read as its type says is named, and the flow returns to the parsing error.
    const failed = await unparsableFiles(supported.map((file) => file.file));
    if (failed.length > 0) {
      dispatchBulk({
        type: 'unparsable',
        keys: supported.filter((file) => failed.includes(file.file)).map((file) => file.key),
      });
      return;
    }
    const names = supported.map((file) => file.file.name);
    try {
      dispatchBulk({ type: 'parsed', items: await parseAll(current.id, names) });
    } catch (error) {
      dispatchBulk({ type: 'parseFailed', message: errorText(error, t) });
    }
  };

  const start = () => {
    setSkippedOpen(false);
    const ids = startBulkUpload(uploadEngine, state, state.organizationId ?? current?.id ?? '');
    dispatchBulk({ type: 'start', itemIds: ids });
  };

  const reset = () => {
    if (state.step === 'done' && items.some(isActive) && !confirmAbortUploads()) return;
    uploadEngine.dismiss(items.filter((item) => !isActive(item)).map((item) => item.id));
    dispatchBulk({ type: 'reset' });
  };

  const uploadable = uploadableFiles(state);
  const skipped = skippedFiles(state);

  if (organizations.isSuccess && !canCreate) {
    return (
      <Stack gap="md">
        <PageHeader title={t('bulkUpload.title')} />
        <Alert color="yellow" icon={<IconAlertCircle size={18} />} data-testid="bulk-no-permission">
          {t('bulkUpload.noPermission', { group: current?.name ?? '' })}
        </Alert>
      </Stack>
    );
  }

  return (
    <Stack gap="md" data-testid="bulk-upload" data-step={state.step}>
      <PageHeader
        title={t('bulkUpload.title')}
        description={t('bulkUpload.description', { group: current?.name ?? '' })}
      />
      <Stepper active={STEP_INDEX[state.step]} size="sm" allowNextStepsSelect={false}>
        <Stepper.Step label={t('bulkUpload.steps.adding')} />
        <Stepper.Step label={t('bulkUpload.steps.previewing')} loading={state.step === 'parsing'} />
        <Stepper.Step label={t('bulkUpload.steps.uploading')} loading={state.step === 'uploading'} />
        <Stepper.Completed>{null}</Stepper.Completed>
      </Stepper>

      {state.step === 'adding' && (
        <Box
          {...drop.zoneProps}
          role="group"
          aria-label={t('uploads.dialog.dropZone')}
          p="xl"
          style={{
            border: `1px dashed var(--mantine-color-${drop.dragging ? 'violet-6' : 'gray-4'})`,
            borderRadius: 'var(--mantine-radius-md)',
            background: drop.dragging ? 'var(--mantine-color-violet-light)' : 'var(--mantine-color-gray-0)',
            textAlign: 'center',
          }}
          data-testid="bulk-dropzone"
        >
          <Stack gap="xs" align="center">
            <Text size="sm">{t('bulkUpload.dropHere')}</Text>
            <Button leftSection={<IconUpload size={16} />} onClick={drop.open} data-testid="bulk-choose-files">
              {t('uploads.dialog.chooseFiles')}
            </Button>
            <Text size="xs" c="dimmed">
              {t('bulkUpload.namingRule')}
            </Text>
          </Stack>
          <input {...drop.inputProps} accept={acceptOf(BULK_EXTENSIONS)} data-testid="bulk-file-input" />
        </Box>
      )}

      {state.step === 'parsing' && (
        <Paper withBorder radius="md" p="xl" data-testid="bulk-parsing">
          <Group justify="center" gap="sm">
            <Loader size="sm" />
            <Text size="sm">{t('bulkUpload.parsing', { count: state.files.length })}</Text>
          </Group>
        </Paper>
      )}

      {state.step === 'parsingError' && (
        <Alert
          color="red"
          icon={<IconAlertCircle size={18} />}
          title={state.unparsable ? undefined : t('bulkUpload.parseFailed')}
          data-testid="bulk-parse-error"
        >
          {state.unparsable
            ? state.unparsable.map((name) => (
                <Text key={name} size="sm">
                  {t('files.parseFailed', { filename: name })}
                </Text>
              ))
            : state.error}
        </Alert>
      )}

      {state.step === 'previewing' && (
        <Alert variant="light" color={skipped.length > 0 ? 'yellow' : 'violet'} data-testid="bulk-summary">
          {t('bulkUpload.summary', {
            upload: uploadable.length,
            cases: new Set(uploadable.filter((file) => !file.parsed?.exists).map((file) => file.parsed?.caseNumber))
              .size,
            skipped: skipped.length,
          })}
        </Alert>
      )}

      {(state.step === 'uploading' || state.step === 'done') && (
        <BulkProgressList items={items} done={state.step === 'done'} />
      )}

      {(state.step === 'adding' || state.step === 'previewing' || state.step === 'parsingError') &&
        state.files.length > 0 && (
          <BulkFileTable
            files={state.files}
            previewed={state.step === 'previewing'}
            onRemove={state.step === 'parsingError' ? undefined : (key) => dispatchBulk({ type: 'remove', key })}
          />
        )}

      {state.step === 'adding' && state.files.length === 0 && (
        <Text size="sm" c="dimmed" ta="center" data-testid="bulk-empty">
          {t('bulkUpload.empty')}
        </Text>
      )}

      <Group justify="flex-end" gap="xs">
        {(state.step === 'previewing' || state.step === 'parsingError') && (
          <Button variant="default" onClick={() => dispatchBulk({ type: 'back' })} data-testid="bulk-back">
            {t('bulkUpload.actions.back')}
          </Button>
        )}
        {(state.step === 'adding' || state.step === 'done') && state.files.length > 0 && (
          <Button variant="default" onClick={reset} data-testid="bulk-reset">
            {t('bulkUpload.actions.reset')}
          </Button>
        )}
        {state.step === 'adding' && (
          <Button
            onClick={() => void preview()}
            disabled={!current || !state.files.some((file) => file.supported)}
            data-testid="bulk-preview"
          >
            {t('bulkUpload.actions.preview')}
          </Button>
        )}
        {state.step === 'previewing' && (
          <Button
            onClick={() => (skipped.length > 0 ? setSkippedOpen(true) : start())}
            disabled={uploadable.length === 0}
            leftSection={<IconUpload size={16} />}
            data-testid="bulk-start"
          >
            {t('bulkUpload.actions.start', { count: uploadable.length })}
          </Button>
        )}
      </Group>
      <SkippedFilesDialog
        opened={skippedOpen}
        files={skipped}
        uploadCount={uploadable.length}
        onCancel={() => setSkippedOpen(false)}
        onConfirm={start}
      />
    </Stack>
  );
}
