import { Box, Button, Group, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconUpload } from '@tabler/icons-react';
import { acceptOf, CASE_IMAGE_EXTENSIONS, selectFiles } from './file-types.ts';
import { unparsableFiles } from './file-check.ts';
import { ParseErrorAlert } from './ParseErrorAlert.tsx';
import { UnsupportedFilesAlert } from './UnsupportedFilesAlert.tsx';
import { uploadEngine } from './upload-service.ts';
import { isActive } from './upload-engine.ts';
import { UploadItemRow } from './UploadItemRow.tsx';
import { useFileDrop } from './useFileDrop.ts';
import { useUploadItems } from './useUploads.ts';

export interface CaseImageUploadProps {
  caseId: string;
  caseNumber: string;
  disabled?: boolean;
  /** Called after each file of this case is stored (e.g. to reload the image list). */
  onUploaded?: () => void;
}

/**
 * "Add Images" of a case: a button and a drop zone that queue files for this case, one upload at a time
 * (part 1 §9), with each file's progress, retry and cancel below.
 */
export function CaseImageUpload({ caseId, caseNumber, disabled = false, onUploaded }: CaseImageUploadProps) {
  const { t } = useTranslation();
  const all = useUploadItems();
  const items = useMemo(() => all.filter((item) => item.queue === 'case' && item.caseId === caseId), [all, caseId]);
  const [rejected, setRejected] = useState<{ names: string[]; noneSupported: boolean }>({
    names: [],
    noneSupported: false,
  });
  const [unparsable, setUnparsable] = useState<string[]>([]);

  useEffect(() => {
    if (!onUploaded) return undefined;
    return uploadEngine.onEvent((event) => {
      if (event.type === 'upload_completed' && event.item.caseId === caseId) onUploaded();
    });
  }, [caseId, onUploaded]);

  const addFiles = async (files: File[]) => {
    // A file of the same name still queued for this case is not queued twice.
    const queued = items.filter(isActive).map((item) => item.filename);
    const { supported, unsupported } = selectFiles(files, CASE_IMAGE_EXTENSIONS, queued);
    setRejected({ names: unsupported.map((file) => file.name), noneSupported: supported.length === 0 });
    const failed = await unparsableFiles(supported);
    setUnparsable(failed.map((file) => file.name));
    const readable = supported.filter((file) => !failed.includes(file));
    if (readable.length === 0) return;
    uploadEngine.enqueue(
      'case',
      readable.map((file) => ({ caseId, caseNumber, filename: file.name, displayName: file.name, file })),
    );
  };

  const { open, dragging, zoneProps, inputProps } = useFileDrop((files) => void addFiles(files), disabled);
  const finished = items.filter((item) => !isActive(item));

  return (
    <Stack gap="xs" data-testid="case-image-upload">
      <Box
        {...zoneProps}
        p="sm"
        style={{
          border: `1px dashed var(--mantine-color-${dragging ? 'violet-6' : 'gray-4'})`,
          borderRadius: 'var(--mantine-radius-md)',
          background: dragging ? 'var(--mantine-color-violet-light)' : undefined,
          opacity: disabled ? 0.6 : 1,
        }}
        data-testid="case-image-dropzone"
        data-dragging={dragging || undefined}
      >
        <Group gap="sm" wrap="wrap">
          <Button
            size="xs"
            leftSection={<IconUpload size={15} />}
            onClick={open}
            disabled={disabled}
            data-testid="add-images"
          >
            {t('uploads.addImages')}
          </Button>
          <Text size="xs" c="dimmed">
            {t('uploads.dropHint')}
          </Text>
        </Group>
        <input {...inputProps} accept={acceptOf(CASE_IMAGE_EXTENSIONS)} data-testid="case-image-input" />
      </Box>
      <ParseErrorAlert names={unparsable} onClose={() => setUnparsable([])} />
      <UnsupportedFilesAlert
        names={rejected.names}
        noneSupported={rejected.noneSupported}
        onClose={() => setRejected({ names: [], noneSupported: false })}
      />
      {items.length > 0 && (
        <Stack gap="sm" aria-live="polite" data-testid="case-image-uploads">
          {items.map((item) => (
            <UploadItemRow key={item.id} item={item} />
          ))}
          {finished.length > 0 && (
            <Group justify="flex-end">
              <Button
                size="compact-xs"
                variant="subtle"
                color="gray"
                onClick={() => uploadEngine.dismiss(finished.map((item) => item.id))}
              >
                {t('uploads.actions.clearFinished')}
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Stack>
  );
}
