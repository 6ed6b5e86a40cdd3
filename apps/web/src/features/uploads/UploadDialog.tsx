import { Alert, Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { useMaxCaseImages } from '../../app/auth/auth-config.queries.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconInfoCircle, IconPlus } from '@tabler/icons-react';
import { caseCreator } from './case-creation.ts';
import { uploadQueryKeys } from './uploads.api.ts';
import { isActive } from './upload-engine.ts';
import { uploadEngine } from './upload-service.ts';
import type { UploadMetadata } from './upload-types.ts';
import { groupDicomSeries } from './dicom-series.ts';
import { unparsableFiles } from './file-check.ts';
import { ParseErrorAlert } from './ParseErrorAlert.tsx';
import { UnsupportedFilesAlert } from './UnsupportedFilesAlert.tsx';
import { UploadItemRow } from './UploadItemRow.tsx';
import { useUploadItems } from './useUploads.ts';
import { DialogCaseSection } from './DialogCaseSection.tsx';
import { ImageMetadataFields } from './ImageMetadataFields.tsx';
import {
  addCase,
  addFiles,
  canSubmit,
  checkCase,
  dropUnparsable,
  forceFlags,
  initialDialogState,
  removeCase,
  type DialogState,
} from './upload-dialog.state.ts';

export interface UploadDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The current group: cases are looked up and created there. */
  organization: { id: string; name: string };
  showModel: boolean;
  maxImages?: number;
}

const EMPTY_METADATA: UploadMetadata = { organ: null, specimenType: null, modelName: null };

/**
 * The case list's upload dialog (part 1 §2–§5): pick or name cases, choose files per case, describe them, then
 * upload two at a time and follow the progress here or in the header's uploads popover.
 */
export function UploadDialog({
  opened,
  onClose,
  organization,
  showModel,
  maxImages: maxImagesProp,
}: UploadDialogProps) {
  const { t } = useTranslation();
  const configuredMax = useMaxCaseImages();
  const maxImages = maxImagesProp ?? configuredMax;
  const queryClient = useQueryClient();
  const [state, setState] = useState<DialogState>(initialDialogState);
  const [metadata, setMetadata] = useState<UploadMetadata>(EMPTY_METADATA);
  const [submitted, setSubmitted] = useState<readonly string[] | null>(null);
  const allItems = useUploadItems();
  const items = useMemo(
    () => (submitted ? allItems.filter((item) => submitted.includes(item.id)) : []),
    [allItems, submitted],
  );

  // Files being read (part 1 §8 "Parsing in upload dialog"): nothing is sent before each is known to be readable.
  const [reading, setReading] = useState(0);
  // A slide's DICOM instances chosen together become one zip, so one image, before they are listed.
  const onAddFiles = (caseKey: string, chosen: File[]) => {
    setReading((count) => count + 1);
    void groupDicomSeries(chosen)
      .then(async (files) => {
        setState((current) => addFiles(current, caseKey, files));
        const failed = await unparsableFiles(files);
        setState((current) => dropUnparsable(current, failed));
      })
      .finally(() => setReading((count) => count - 1));
  };

  const onState = useCallback((update: (current: DialogState) => DialogState) => setState(update), []);

  // The list shows new images and counts as soon as each file is stored.
  useEffect(
    () =>
      uploadEngine.onEvent((event) => {
        if (event.type === 'upload_completed' && event.item.queue === 'dialog') {
          void queryClient.invalidateQueries({ queryKey: ['case-list'] });
          void queryClient.invalidateQueries({ queryKey: uploadQueryKeys.all });
        }
      }),
    [queryClient],
  );

  const reset = () => {
    setState(initialDialogState());
    setSubmitted(null);
  };

  const submit = () => {
    const createCase = caseCreator(organization.id);
    const ids: string[] = [];
    for (const draft of state.cases) {
      const { uploadable } = checkCase(state, draft, maxImages);
      if (uploadable.length === 0) continue;
      const caseNumber = draft.caseNumber.trim();
      const queued = uploadEngine.enqueue(
        'dialog',
        uploadable.map((file) => ({
          ...metadata,
          caseId: draft.match?.id ?? null,
          caseNumber,
          filename: file.file.name,
          displayName: file.displayName.trim() || file.file.name,
          file: file.file,
          ...forceFlags(file),
        })),
        { resolveCase: (item) => createCase(item.caseNumber) },
      );
      ids.push(...queued.map((item) => item.id));
    }
    setSubmitted(ids);
  };

  const close = () => {
    if (submitted && !items.some(isActive)) reset();
    onClose();
  };

  const done = items.filter((item) => item.status === 'uploaded').length;
  const running = items.some(isActive);
  const overall = items.length === 0 ? 0 : items.reduce((sum, item) => sum + item.uploadProgress, 0) / items.length;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('uploads.dialog.title')}
      size="xl"
      centered
      data-testid="upload-dialog"
    >
      {submitted ? (
        <Stack gap="sm" data-testid="upload-dialog-progress">
          <Group justify="space-between">
            <Text size="sm">{t('uploads.dialog.uploadedCount', { done, total: items.length })}</Text>
            <Text size="sm" c="dimmed">
              {Math.round(overall * 100)}%
            </Text>
          </Group>
          <Progress value={overall * 100} size="sm" aria-label={t('uploads.dialog.overallProgress')} />
          <Stack gap="sm" aria-live="polite">
            {items.map((item) => (
              <UploadItemRow key={item.id} item={item} showCase />
            ))}
          </Stack>
          {running && (
            <Text size="xs" c="dimmed">
              {t('uploads.dialog.continuesInBackground')}
            </Text>
          )}
          <Group justify="flex-end">
            {!running && (
              <Button variant="default" onClick={reset} data-testid="upload-more">
                {t('uploads.dialog.uploadMore')}
              </Button>
            )}
            <Button onClick={close} data-testid="upload-dialog-close">
              {t('uploads.actions.close')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          <Alert variant="light" color="violet" icon={<IconInfoCircle size={18} />} data-testid="upload-dialog-info">
            {t('uploads.dialog.info', { group: organization.name })}
          </Alert>
          <ImageMetadataFields value={metadata} onChange={setMetadata} showModel={showModel} />
          {state.cases.map((draft, index) => (
            <DialogCaseSection
              key={draft.key}
              state={state}
              draft={draft}
              index={index}
              organizationId={organization.id}
              maxImages={maxImages}
              onState={onState}
              onAddFiles={onAddFiles}
              onRemoveCase={
                state.cases.length > 1 ? () => setState((current) => removeCase(current, draft.key)) : undefined
              }
            />
          ))}
          <ParseErrorAlert
            names={state.unparsable}
            onClose={() => setState((current) => ({ ...current, unparsable: [] }))}
          />
          <UnsupportedFilesAlert
            names={state.rejected}
            noneSupported
            onClose={() => setState((current) => ({ ...current, rejected: [] }))}
          />
          <Group justify="space-between">
            <Button
              variant="subtle"
              size="xs"
              leftSection={<IconPlus size={14} />}
              onClick={() => setState(addCase)}
              data-testid="add-case"
            >
              {t('uploads.dialog.addCase')}
            </Button>
            <Group gap="xs">
              <Button variant="default" onClick={close}>
                {t('uploads.dialog.cancel')}
              </Button>
              <Button
                onClick={submit}
                disabled={reading > 0 || !canSubmit(state, maxImages)}
                data-testid="upload-submit"
              >
                {t('uploads.dialog.upload')}
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
